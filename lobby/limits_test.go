package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

func TestRoomQuota(t *testing.T) {
	ctx := context.Background()
	now := t0
	store := NewMemStore()
	l := New(Config{Store: store, Games: []engine.Ruleset{factories.Rules{}}, Now: func() time.Time { return now },
		Limits: Limits{RoomsPerHour: 3, OpenRooms: 2}})
	hana, kai := Player{ID: "key:hana", Name: "hana"}, Player{ID: "key:kai", Name: "kai"}
	create := func(p Player) (Meta, error) {
		return l.Create(ctx, p, CreateOptions{Seats: 1, Public: true, Difficulty: "easy"})
	}
	refused := func(p Player, reason string) {
		t.Helper()
		var lim *LimitError
		if _, err := create(p); !errors.As(err, &lim) || lim.Reason != reason {
			t.Fatalf("%s's room: %v, want refused for %s", p.Name, err, reason)
		}
	}
	a, _ := create(hana)
	if _, err := create(hana); err != nil {
		t.Fatal(err)
	}
	refused(hana, "open_rooms")
	if _, err := create(kai); err != nil { // another player's count is their own
		t.Fatal(err)
	}
	if err := l.End(ctx, a.Code, hana); err != nil {
		t.Fatal(err)
	}
	if _, err := create(hana); err != nil { // one ended: room for one more
		t.Fatal(err)
	}
	metas, _ := store.List(ctx)
	for _, m := range metas {
		if m.Host == hana.ID && !m.Over {
			if err := l.End(ctx, m.Code, hana); err != nil {
				t.Fatal(err)
			}
		}
	}
	now = now.Add(10 * time.Minute)
	refused(hana, "rooms_per_hour") // three within the hour
	now = now.Add(time.Hour)
	if _, err := create(hana); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
}

// A stream of moves faster than the limit is refused move by move, and the
// room goes on: the refused moves were never played.
func TestMoveRate(t *testing.T) {
	ctx := context.Background()
	l := New(Config{Store: NewMemStore(), Games: []engine.Ruleset{factories.Rules{}}, Limits: Limits{MovesPerSecond: 2}})
	m, err := l.Create(ctx, Player{ID: "key:hana"}, CreateOptions{Seats: 1, Difficulty: "easy", HasSeed: true, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, Player{ID: "key:hana", Name: "hana"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	bogus := json.RawMessage(`{"kind":"nonsense"}`)
	var limited, refused int
	for range 10 {
		var lim *LimitError
		switch err := c.Move(ctx, bogus); {
		case errors.As(err, &lim):
			limited++
		case err != nil:
			refused++ // by the rules: it was judged, not played
		default:
			t.Fatal("a nonsense move was played")
		}
	}
	if refused != 4 || limited != 6 {
		t.Errorf("10 moves at once with 2 a second (bursts of 4): %d judged, %d refused by the limit", refused, limited)
	}
	if u := latest(t, c); u.Version != 0 {
		t.Errorf("version %d after refused moves", u.Version)
	}
}
