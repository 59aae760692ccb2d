package lobby

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

// aliveEvery is how often a running instance says so in the store.
const aliveEvery = 2 * time.Second

// aliveStale is the silence that is a downtime: two missed words and a
// margin, so a slow write is not one.
const aliveStale = 5 * time.Second

// DefaultReconnectWindow is the least time every seat has, after a
// restart, before its clock runs out or it goes to a bot: the players
// were cut off by the service, not by their own choice.
const DefaultReconnectWindow = time.Minute

// pauses are the service's downtimes as the store last told this lobby.
type pauses struct {
	mu     sync.Mutex
	down   []store.Downtime
	window time.Duration // the reconnect window after each
	// running is set once Run says the service is alive; known is closed
	// once it first asked the store, so that rooms loaded by a server
	// just restarted reckon their clocks with the downtime it ends.
	running atomic.Bool
	known   chan struct{}
}

func newPauses(window time.Duration) *pauses {
	if window <= 0 {
		window = DefaultReconnectWindow
	}
	return &pauses{window: window, known: make(chan struct{})}
}

// wait returns once the store was first asked for the downtimes, when
// Run asks it, or when ctx ends.
func (p *pauses) wait(ctx context.Context) {
	if !p.running.Load() {
		return
	}
	select {
	case <-p.known:
	case <-ctx.Done():
	}
}

// set takes in the store's account.
func (p *pauses) set(down []store.Downtime) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = slices.Clone(down)
}

// after is when d of the service's running time has passed since since:
// since+d, pushed back by every downtime that began before then, and no
// earlier than the reconnect window after such a downtime's end.
func (p *pauses) after(since time.Time, d time.Duration) time.Time {
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
		at = at.Add(down.To.Sub(later(down.From, since)))
		at = later(at, down.To.Add(p.window))
	}
	return at
}

// stayAlive says in the store that this instance runs, at once and every
// aliveEvery until ctx ends, and once more then (a clean shutdown's
// downtime starts at its end); each answer updates the lobby's pauses. A
// store that cannot be reached only leaves them as they were. The caller
// sets l.pauses.running first.
func (l *Lobby) stayAlive(ctx context.Context) {
	first := true
	say := func(ctx context.Context) {
		down, err := l.cfg.Store.Alive(ctx, l.cfg.Now(), aliveStale)
		l.serviceAway(err != nil)
		if err != nil {
			l.storeFault("uptime", err)
			return
		}
		l.pauses.set(down)
	}
	tick := time.NewTicker(aliveEvery)
	defer tick.Stop()
	for {
		round, cancel := context.WithTimeout(ctx, aliveEvery)
		say(round)
		cancel()
		if first {
			close(l.pauses.known)
			first = false
		}
		select {
		case <-ctx.Done():
			bye, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			say(bye)
			cancel()
			return
		case <-tick.C:
		}
	}
}
