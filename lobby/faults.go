package lobby

import (
	"context"
	"log/slog"
	"time"

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
var errUnconfirmed = &unconfirmedError{}

type unconfirmedError struct{}

func (*unconfirmedError) Error() string {
	return "the game service could not confirm your move: it may still count, so look at the board before you play it again"
}

func (*unconfirmedError) Unwrap() error { return ErrUnavailable }

// unconfirmed shows the room's sessions the game as the store has it
// after a move it could not confirm, so the board says whether the move
// stands, with the reconnecting notice. The caller holds r.writing.
func (r *room) unconfirmed(ctx context.Context, err error) error {
	if cerr := r.catchUp(ctx); cerr != nil {
		err = cerr
	}
	r.failed(err)
	return errUnconfirmed
}

// reconnecting is the notice a room's sessions show while the store
// fails it: short, and saying that it is being dealt with.
const reconnecting = "reconnecting to the game service…"

// serviceAway shows the reconnecting notice in every room here while
// the store does not answer the lobby's regular word (stayAlive), and
// takes it away when it answers again: the players at a quiet table are
// told too, not only one whose move failed.
func (l *Lobby) serviceAway(away bool) {
	if l.away.Swap(away) == away {
		return
	}
	l.mu.Lock()
	rooms := make([]*room, 0, len(l.rooms))
	for _, r := range l.rooms {
		rooms = append(rooms, r)
	}
	l.mu.Unlock()
	for _, r := range rooms {
		r.mu.Lock()
		r.broadcast()
		r.mu.Unlock()
	}
}

// shownNotice is the room's notice, or the reconnecting one while the
// store is away. The caller holds r.mu.
func (r *room) shownNotice() string {
	if r.notice == "" && r.l.away.Load() {
		return reconnecting
	}
	return r.notice
}
