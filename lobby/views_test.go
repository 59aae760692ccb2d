package lobby

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// TestUpdatesShareSeatViews: every connection of a seat gets that seat's
// view value, one value shared by them, and a spectator the public one;
// View, for a connection that reads it, is the value's JSON, and a
// connection that skips JSON gets none.
func TestUpdatesShareSeatViews(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	meta, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true, Seed: 7, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	join := func(p Player) *Conn {
		c, err := l.Join(ctx, meta.Code, p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, screen, b := join(alice), join(alice), join(bob)
	screen.SkipJSON()
	watcher, err := l.Watch(ctx, meta.Code, Player{ID: "key:carol", Name: "carol"})
	if err != nil {
		t.Fatal(err)
	}
	mv, _ := json.Marshal(pick(view(t, latest(t, a)).Legal))
	if err := a.Move(ctx, mv); err != nil {
		t.Fatal(err)
	}
	ua, us, ub, uw := next(t, a), next(t, screen), next(t, b), next(t, watcher)
	for _, c := range []struct {
		name string
		u    Update
		seat int
	}{{"alice", ua, 0}, {"alice's screen", us, 0}, {"bob", ub, 1}, {"carol watching", uw, engine.Spectator}} {
		v, ok := c.u.Value.(*tally.View)
		if !ok || v.Seat != c.seat || c.u.Version != 1 {
			t.Fatalf("%s: value %#v at version %d, want seat %d's view", c.name, c.u.Value, c.u.Version, c.seat)
		}
		if raw, _ := json.Marshal(v); c.name != "alice's screen" && string(c.u.View) != string(raw) {
			t.Errorf("%s: View %s, value's JSON %s", c.name, c.u.View, raw)
		}
	}
	if us.View != nil {
		t.Errorf("a connection skipping JSON got %s", us.View)
	}
	if ua.Value != us.Value {
		t.Error("the seat's connections got views of their own")
	}
}
