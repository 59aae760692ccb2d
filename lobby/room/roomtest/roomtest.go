// Package roomtest helps the tests of rooms and of the lobby over them:
// a clock the test moves, with the rooms' timers on it, and the newest
// of a connection's updates.
package roomtest

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// Clock is a clock the test moves, with the rooms' timers on it (the
// env's Now and AfterFunc): a timer due now runs at once in its own
// goroutine, as the room may hold its lock when it sets one; later ones
// run, in the test's goroutine, when Advance passes their time.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	pending []*timer
}

type timer struct {
	at      time.Time
	f       func()
	stopped bool
}

// NewClock is a clock at a fixed time.
func NewClock() *Clock { return &Clock{now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// AfterFunc runs f once the clock passes d from now; stop cancels it.
func (c *Clock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{at: c.now.Add(d), f: f}
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

// Advance moves the clock on by d and runs the timers that came due, in
// the order of their times.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*timer
	c.pending = slices.DeleteFunc(c.pending, func(t *timer) bool {
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
	slices.SortStableFunc(due, func(a, b *timer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.f()
	}
}

// Newest waits up to 5 s for a first value on updates, then drains it
// and returns the newest: a connection's latest update, whatever it was
// sent before.
func Newest[U any](t testing.TB, updates <-chan U) U {
	t.Helper()
	var u U
	select {
	case u = <-updates:
	case <-time.After(5 * time.Second):
		t.Fatal("no update within 5s")
	}
	for {
		select {
		case u = <-updates:
		default:
			return u
		}
	}
}
