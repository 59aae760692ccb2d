package lobby

import (
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

// serviceAway shows the reconnecting notice in every room here while
// the store does not answer the lobby's regular word (stayAlive), and
// takes it away when it answers again: the players at a quiet table are
// told too, not only one whose move failed.
func (l *Lobby) serviceAway(away bool) {
	if l.away.Swap(away) == away {
		return
	}
	for _, r := range l.access.loaded() {
		r.Broadcast()
	}
}
