package room

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// The time the service is down is nobody's. A turn's clock (clock.go) and
// a seat's grace period (votes.go) count only the time the service ran:
// every downtime within them pushes them back by its length, and after a
// restart every seat has at least the reconnect window to come back
// before its clock runs out or it goes to a bot.
//
// The downtimes come from the store's uptime account (store.Uptime):
// every instance says it is alive every aliveEvery, and a silence longer
// than aliveStale is a downtime from the last word to the next. So a
// killed instance is reckoned like a clean shutdown (to within
// aliveEvery), and instances sharing a store read the same account.

// DefaultReconnectWindow is the least time every seat has, after a
// restart, before its clock runs out or it goes to a bot: the players
// were cut off by the service, not by their own choice.
const DefaultReconnectWindow = time.Minute

// Pauses are the service's downtimes as the store last told this lobby.
type Pauses struct {
	mu     sync.Mutex
	down   []store.Downtime
	window time.Duration // the reconnect window after each
	// running is set once Run says the service is alive; known is closed
	// once it first asked the store, so that rooms loaded by a server
	// just restarted reckon their clocks with the downtime it ends.
	running atomic.Bool
	known   chan struct{}
}

// NewPauses are a service's downtimes, none known yet, each followed by
// window for every seat to come back (DefaultReconnectWindow for 0).
func NewPauses(window time.Duration) *Pauses {
	if window <= 0 {
		window = DefaultReconnectWindow
	}
	return &Pauses{window: window, known: make(chan struct{})}
}

// Wait returns once the store was first asked for the downtimes, when
// Run asks it, or when ctx ends.
func (p *Pauses) Wait(ctx context.Context) {
	if !p.running.Load() {
		return
	}
	select {
	case <-p.known:
	case <-ctx.Done():
	}
}

// Set takes in the store's account.
func (p *Pauses) Set(down []store.Downtime) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = slices.Clone(down)
}

// after is when d of the service's running time has passed since since:
// since+d, pushed back by every downtime that began before then, and no
// earlier than the reconnect window after such a downtime's end.
func (p *Pauses) after(since time.Time, d time.Duration) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	at := since.Add(d)
	for _, down := range p.down {
		if !down.To.After(since) {
			continue
		}
		if !down.From.Before(at) {
			break
		}
		at = at.Add(down.To.Sub(Later(down.From, since)))
		at = Later(at, down.To.Add(p.window))
	}
	return at
}

// Start says that Run keeps the service's downtimes: rooms loaded from
// now on wait for the first answer (Known) before reckoning their clocks.
func (p *Pauses) Start() { p.running.Store(true) }

// Known says the store was first asked for the service's downtimes.
func (p *Pauses) Known() { close(p.known) }

// Downtimes are the service's downtimes as last read from the store.
func (p *Pauses) Downtimes() []store.Downtime {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.down)
}
