package room

import (
	"context"

	"github.com/smokestack/smokestack/engine"
)

// ErrUnconfirmed is what a player sees when the store wrote their move
// but could not confirm it is safe (store.ErrUnconfirmed: too few
// replicas hold it). It may stand, or be lost if the primary fails now:
// neither "played" nor "nothing was played" would be true.
var ErrUnconfirmed = &unconfirmedError{refusal: engine.Refusal{Words: engine.Say("lobby.unconfirmed"),
	Text: "the game service could not confirm your move: it may still count, so look at the board before you play it again"}}

// unconfirmedError is ErrUnavailable (errors.Is) that says more, and says
// it in the player's language: errors.As finds its own words first, not
// the unavailable service's it wraps.
type unconfirmedError struct{ refusal engine.Refusal }

func (e *unconfirmedError) Error() string { return e.refusal.Text }

func (*unconfirmedError) Unwrap() error { return ErrUnavailable }

// As gives an *engine.Refusal target the error's own words.
func (e *unconfirmedError) As(target any) bool {
	if r, ok := target.(**engine.Refusal); ok {
		*r = &e.refusal
		return true
	}
	return false
}

// unconfirmed shows the room's sessions the game as the store has it
// after a move it could not confirm, so the board says whether the move
// stands, with the reconnecting notice.
func (r writer) unconfirmed(ctx context.Context, err error) error {
	if cerr := r.catchUp(ctx); cerr != nil {
		err = cerr
	}
	r.failed(err)
	return ErrUnconfirmed
}

// shownNotice is the room's notice, or the reconnecting one while the
// store is away.
func (r held) shownNotice() string {
	if r.notice == "" && r.env.Away() {
		return NoticeReconnecting
	}
	return r.notice
}
