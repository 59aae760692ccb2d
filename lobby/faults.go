package lobby

import (
	"context"
	"log/slog"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/ratelog"
)

// faultLogEvery is how often one kind of store fault is logged while it
// keeps happening: a Redis that is away fails every player's every
// request, and each failure is counted, but a line per failure would
// fill a disk (ratelog).
const faultLogEvery = 10 * time.Second

// storeFault counts a store error in the Observer's store errors and logs
// it once per burst of its kind, with a count of the rest.
func (l *Lobby) storeFault(kind string, err error, attrs ...any) {
	l.observer().StoreFailed(err)
	l.faults.Log(slog.LevelWarn, kind, kind, append(attrs, "err", err)...)
}

// newFaultLog is the lobby's log of store faults.
func newFaultLog(log *slog.Logger) *ratelog.Logger { return ratelog.New(log, faultLogEvery) }

// errUnconfirmed is what a player sees when the store wrote their move
// but could not confirm it is safe (store.ErrUnconfirmed: too few
// replicas hold it). It may stand, or be lost if the primary fails now:
// neither "played" nor "nothing was played" would be true.
var errUnconfirmed = &unconfirmedError{refusal: engine.Refusal{Words: engine.Say("lobby.unconfirmed"),
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
	return errUnconfirmed
}

// serviceAway shows the reconnecting notice in every room here while
// the store does not answer the lobby's regular word (stayAlive), and
// takes it away when it answers again: the players at a quiet table are
// told too, not only one whose move failed.
func (l *Lobby) serviceAway(away bool) {
	if l.away.Swap(away) == away {
		return
	}
	for _, r := range l.access.loaded() {
		h := r.lock()
		h.broadcast()
		h.unlock()
	}
}

// shownNotice is the room's notice, or the reconnecting one while the
// store is away.
func (r held) shownNotice() string {
	if r.notice == "" && r.env.away() {
		return NoticeReconnecting
	}
	return r.notice
}
