package room

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// A move's update tells the other seats and the spectators when the move
// was stored, for the server to time their frames from; the mover's own
// update does not, nor do updates that show no new move.
func TestMoveStampsTheOthersUpdates(t *testing.T) {
	ctx := context.Background()
	g := newRoomRig()
	r := g.open(t, "STAMP", 2)
	a, err := r.join(ctx, ann, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.join(ctx, ben, "")
	if err != nil {
		t.Fatal(err)
	}
	spec := r.watch(cal, false)
	first := map[*Conn]Update{}
	for _, c := range []*Conn{a, b, spec} {
		if first[c] = latest(t, c); !first[c].Stored.IsZero() {
			t.Fatalf("seat %d's update before any move carries a move's time", c.seat)
		}
	}
	raw, _ := json.Marshal(pick(view(t, first[a]).Legal))
	before := time.Now()
	if err := a.Move(ctx, raw); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	if u := latest(t, a); !u.Stored.IsZero() {
		t.Errorf("the mover's own update carries the move's time")
	}
	for _, c := range []*Conn{b, spec} {
		u := latest(t, c)
		if u.Version != 1 || u.Stored.Before(before) || u.Stored.After(after) {
			t.Errorf("seat %d's update: version %d, stored %v, want 1 and within the move's call", c.seat, u.Version, u.Stored)
		}
	}
	r.failed(nil) // an update showing no new move
	if u := latest(t, b); !u.Stored.IsZero() {
		t.Errorf("an update with no new move carries a move's time")
	}
}

// An update that replaces one never read keeps the move time it carried:
// the move is still to be shown, by the newer update.
func TestNewerUpdateKeepsTheUnshownMovesTime(t *testing.T) {
	g := newRoomRig()
	r := g.open(t, "KEEPS", 2)
	spec := r.watch(cal, false)
	latest(t, spec)
	stored := time.Now()
	h := r.lock()
	h.push(spec, Update{Version: 1, Stored: stored})
	h.push(spec, Update{Version: 2}) // not a move: chat, presence
	h.unlock()
	if u := latest(t, spec); u.Version != 2 || !u.Stored.Equal(stored) {
		t.Errorf("newest update: version %d, stored %v; want 2, %v", u.Version, u.Stored, stored)
	}
}
