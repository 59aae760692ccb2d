package room

import (
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// TestTurnClock: the clock part alone. A turn begins when a seat starts
// acting and lasts while it acts; a seat joining those acting, or a new
// round, begins every acting seat's turn anew; a person back from a bot
// starts afresh; and a seat runs out only while a person in another seat
// waits.
func TestTurnClock(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	m := store.Meta{Seats: []store.Seat{{Player: "key:ann"}, {Player: "key:ben"}, {Bot: "first"}}, Clock: time.Minute}
	var c turnClock
	c.start(m.Clock, nil, engine.Status{Round: 1, Acting: []int{0}}, t0)
	if d, ok := c.deadline(0, &m); !ok || !d.Equal(t0.Add(time.Minute)) {
		t.Fatalf("ann's deadline %v, %v", d, ok)
	}
	if _, ok := c.deadline(1, &m); ok {
		t.Fatal("ben, not acting, has a deadline")
	}
	c.note(engine.Status{Round: 1, Acting: []int{0, 1, 2}}, t0.Add(10*time.Second))
	if d, _ := c.deadline(0, &m); !d.Equal(t0.Add(70 * time.Second)) {
		t.Fatalf("ann's turn did not begin anew as others joined: %v", d)
	}
	if _, ok := c.deadline(2, &m); ok {
		t.Fatal("a bot's seat has a deadline")
	}
	c.note(engine.Status{Round: 1, Acting: []int{0}}, t0.Add(20*time.Second))
	if d, _ := c.deadline(0, &m); !d.Equal(t0.Add(70 * time.Second)) {
		t.Fatalf("ann's turn began anew as others finished: %v", d)
	}
	m.Seats[0].Since = t0.Add(30 * time.Second) // back from a bot
	if d, _ := c.deadline(0, &m); !d.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("ann back from a bot: deadline %v", d)
	}
	if at, ok := c.next(&m, t0.Add(80*time.Second)); !ok || !at.Equal(t0.Add(90*time.Second)) {
		t.Fatalf("the next deadline %v, %v", at, ok)
	}
	late := t0.Add(2 * time.Minute)
	nobody := func(int) bool { return false }
	benHere := func(seat int) bool { return seat == 1 }
	if c.outOfTime(0, &m, late, nobody) {
		t.Fatal("ann ran out with nobody waiting")
	}
	if !c.outOfTime(0, &m, late, benHere) {
		t.Fatal("ann did not run out with ben waiting")
	}
	if _, ok := c.next(&m, late); ok {
		t.Fatal("a deadline to come after every one passed")
	}
	c.note(engine.Status{Round: 2, Acting: []int{0}}, late)
	if d, _ := c.deadline(0, &m); !d.Equal(late.Add(time.Minute)) {
		t.Fatalf("a new round did not begin ann's turn anew: %v", d)
	}
	m.Over = true
	if _, ok := c.deadline(0, &m); ok {
		t.Fatal("a deadline in a game that is over")
	}
	var off turnClock
	off.start(0, nil, engine.Status{Acting: []int{0}}, t0)
	if _, ok := off.deadline(0, &store.Meta{Seats: m.Seats}); ok || len(off.since) != 0 {
		t.Fatal("a room without a clock keeps turns")
	}
}
