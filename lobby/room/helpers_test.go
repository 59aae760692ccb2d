package room

import (
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/internal/waittest"
)

// Helpers the lobby's tests share, for the room's own: a tiny game,
// a fake clock, and reading a connection's updates.

// timers is a clock the test moves, with the rooms' timers on it
// (Config.Now, Config.AfterFunc): a timer due now runs at once in its own
// goroutine, as the room may hold its lock when it sets one; later ones
// run, in the test's goroutine, when advance passes their time.
type timers struct {
	mu      sync.Mutex
	now     time.Time
	pending []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newTimers() *timers { return &timers{now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

func (c *timers) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *timers) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.pending = append(c.pending, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// advance moves the clock on by d and runs the timers that came due, in
// the order of their times.

// next waits for the connection's next update.
func next(t *testing.T, c *Conn) Update {
	t.Helper()
	select {
	case u := <-c.Updates():
		u.WordLog() // as play does, for the tests reading the log
		return u
	case <-time.After(5 * time.Second):
		t.Fatal("no update within 5s")
	}
	return Update{}
}

// t0 is the tests' fixed time.
var t0 = time.Date(2026, 3, 4, 5, 6, 7, 890000000, time.UTC)

// eventually waits for a state no channel announces (a store's contents,
// a subscriber list, the time a store keeps).
var eventually = waittest.Until

// seen remembers each connection's newest update, as a session does.
var seen sync.Map

// latest returns the connection's newest update, waiting only for its first.
func latest(t *testing.T, c *Conn) Update {
	t.Helper()
	u, ok := seen.Load(c)
	if !ok {
		u = next(t, c)
	}
	for {
		select {
		case u = <-c.Updates():
		default:
			w := u.(Update)
			w.WordLog()
			seen.Store(c, w)
			return w
		}
	}
}

func view(t *testing.T, u Update) tally.View {
	t.Helper()
	var v tally.View
	if err := json.Unmarshal(u.View, &v); err != nil {
		t.Fatalf("view: %v (%s)", err, u.View)
	}
	return v
}

// tallyGame is the game the lobby's tests play: a tiny one that shows rooms
// run any ruleset without knowing it.
func tallyGame() Game { return Game{Rules: tally.Rules, Bots: tally.Bots()} }

func pick(legal []tally.Move) tally.Move { return legal[0] }
func (c *timers) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	c.pending = slices.DeleteFunc(c.pending, func(t *fakeTimer) bool {
		if t.stopped || !t.at.After(c.now) {
			if !t.stopped {
				t.stopped = true
				due = append(due, t)
			}
			return true
		}
		return false
	})
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *fakeTimer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.f()
	}
}

// tallyTable is a room of tally played by people on one lobby with a clock
// the test moves.
var (
	ann = Player{ID: "key:ann", Name: "ann"}
	ben = Player{ID: "key:ben", Name: "ben"}
	cal = Player{ID: "key:cal", Name: "cal"}
)
