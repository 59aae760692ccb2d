package store

import (
	"maps"
	"testing"
	"time"
)

// TestSharedPresenceSeats: a claim counts while its instance's heartbeat
// is younger than the TTL at the time the heartbeats were read; a dead
// instance's seats were held until its last heartbeat, or its claim when
// that was written later; a seat let go keeps the latest time; before any
// heartbeat is read every claim counts.
func TestSharedPresenceSeats(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	const ttl = 15 * time.Second
	p := SharedPresence{
		Claims: map[string]Claim{
			"live":  {Seats: []int{0}, At: t0},
			"dead":  {Seats: []int{1, 2}, At: t0},
			"fresh": {Seats: []int{3}, At: t0.Add(50 * time.Second)}, // not beaten yet when read
			"late":  {Seats: []int{4}, At: t0.Add(20 * time.Second)}, // claimed after its last beat
		},
		Left: map[int]time.Time{1: t0.Add(time.Minute), 2: t0.Add(-time.Minute)},
	}
	beats := Heartbeats{At: t0.Add(time.Minute), Last: map[string]time.Time{
		"live": t0.Add(50 * time.Second), "dead": t0.Add(10 * time.Second), "late": t0.Add(5 * time.Second)}}
	elsewhere, lastHeld := p.Seats(beats, ttl)
	if want := map[int]bool{0: true, 3: true}; !maps.Equal(elsewhere, want) {
		t.Errorf("held elsewhere: %v, want %v", elsewhere, want)
	}
	want := map[int]time.Time{
		1: t0.Add(time.Minute),      // let go after the instance died
		2: t0.Add(10 * time.Second), // its instance's last heartbeat
		4: t0.Add(20 * time.Second), // its claim, later than the heartbeat
	}
	if !maps.EqualFunc(lastHeld, want, time.Time.Equal) {
		t.Errorf("last held: %v, want %v", lastHeld, want)
	}
	// The TTL's edge: a heartbeat exactly ttl old no longer counts.
	edge := Heartbeats{At: t0.Add(25 * time.Second), Last: beats.Last}
	if e, _ := p.Seats(edge, ttl); e[1] || !e[4] {
		t.Errorf("at %v: held elsewhere %v, want dead's seats away and late's held", edge.At, e)
	}
	if e, _ := p.Seats(Heartbeats{}, ttl); len(e) != 5 {
		t.Errorf("before any heartbeat: held elsewhere %v, want every claimed seat", e)
	}
}
