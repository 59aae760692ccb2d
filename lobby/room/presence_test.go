package room

import (
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// TestPresencePart: the presence part alone. Two sessions on one seat
// hold it until both leave; the seat is away since the last left, or
// since a later time another instance knew it held; with other instances
// each change is to be shared, and an answer to a read older than one
// already taken is dropped.
func TestPresencePart(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	alone := presence{started: t0}
	alone.arrive(0)
	alone.arrive(0)
	if alone.leave(0, t0.Add(time.Second)) || !alone.present(0) {
		t.Fatal("one of two sessions left and the seat is not held")
	}
	if alone.leave(0, t0.Add(2*time.Second)) {
		t.Fatal("with no other instances, a change is to be shared")
	}
	if alone.present(0) || !alone.awaySince(0, t0.Add(time.Hour)).Equal(t0.Add(2*time.Second)) {
		t.Fatalf("seat 0 present %v, away since %v", alone.present(0), alone.awaySince(0, t0))
	}
	if got := alone.awaySince(1, t0.Add(time.Hour)); !got.Equal(t0) {
		t.Fatalf("a seat never held is away since %v, not the server's start", got)
	}
	if alone.arrive(-1) || alone.leave(-1, t0) || len(alone.held()) != 0 {
		t.Fatal("a spectator holds a seat")
	}

	shared := presence{started: t0, shared: true}
	updated := t0.Add(time.Minute)
	if got := shared.awaySince(1, updated); !got.Equal(updated) {
		t.Fatalf("with other instances a seat never held is away since %v, not the room's last change", got)
	}
	if !shared.arrive(1) {
		t.Fatal("a change with other instances is not to be shared")
	}
	claim, ok := shared.claim(false, t0)
	if !ok || !slices.Equal(claim.held, []int{1}) || len(claim.last) != 0 {
		t.Fatalf("the claim after a change: %+v, %v", claim, ok)
	}
	shared.arrive(2) // changed again while the claim was being written
	shared.wrote(claim)
	if !shared.dirty {
		t.Fatal("a claim written marked a later change shared")
	}
	const ttl = 15 * time.Second
	beats := store.Heartbeats{At: t0, Last: map[string]time.Time{"b": t0}}
	older, newer := shared.ask(), shared.ask()
	heldOnB := store.SharedPresence{Claims: map[string]store.Claim{"b": {Seats: []int{0}, At: t0}}}
	if !shared.take(newer, heldOnB, beats, ttl) || !shared.present(0) {
		t.Fatal("a seat held elsewhere is not shown")
	}
	if shared.take(older, store.SharedPresence{}, beats, ttl) || !shared.present(0) {
		t.Fatal("an older read's answer was taken over a newer one's")
	}
	// b's heartbeats stop: a heartbeat read ttl after its last shows its
	// seat away since then, with no read of the room.
	if shared.see(store.Heartbeats{At: t0.Add(ttl - time.Millisecond), Last: beats.Last}, ttl) || !shared.present(0) {
		t.Fatal("b's seat away before its TTL ran out")
	}
	if !shared.see(store.Heartbeats{At: t0.Add(ttl), Last: beats.Last}, ttl) || shared.present(0) || !shared.awaySince(0, updated).Equal(t0) {
		t.Fatalf("b dead: seat 0 present %v, away since %v, want since b's last heartbeat %v", shared.present(0), shared.awaySince(0, updated), t0)
	}
	left := t0.Add(5 * time.Second)
	shared.take(shared.ask(), store.SharedPresence{Left: map[int]time.Time{0: left}}, beats, ttl)
	if shared.present(0) || !shared.awaySince(0, updated).Equal(left) {
		t.Fatalf("seat 0 left elsewhere at %v; away since %v", left, shared.awaySince(0, updated))
	}
	renewal, ok := shared.claim(false, t0.Add(time.Second))
	if !ok || !slices.Equal(renewal.held, []int{1, 2}) {
		t.Fatalf("the claim after the change made meanwhile: %+v, %v", renewal, ok)
	}
	shared.wrote(renewal)
	if _, ok := shared.claim(false, t0.Add(time.Minute)); ok {
		t.Fatal("a claim written again with nothing changed: the heartbeat keeps it alive")
	}
	leaving, ok := shared.claim(true, t0.Add(time.Minute))
	if !ok || leaving.held != nil || !leaving.last[2].Equal(t0.Add(time.Minute)) {
		t.Fatalf("the claim on leaving: %+v, %v", leaving, ok)
	}
	shared.wrote(leaving)
	if _, ok := shared.claim(false, t0); ok {
		t.Fatal("a claim with nothing changed")
	}
}
