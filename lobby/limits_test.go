package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

func TestRoomQuota(t *testing.T) {
	ctx := context.Background()
	now := t0
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Now: func() time.Time { return now },
		Limits: Limits{RoomsPerHour: 3, OpenRooms: 2}})
	hana, kai := Player{ID: "key:hana", Name: "hana"}, Player{ID: "key:kai", Name: "kai"}
	create := func(p Player) (store.Meta, error) {
		return l.Create(ctx, p, CreateOptions{Seats: 1, Public: true})
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
	metas, _ := st.List(ctx)
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

// Moves faster than the limit are slowed to it, and refused move by move
// once one would wait over a second; the room goes on, and the refused
// moves were never played.
func TestMoveRate(t *testing.T) {
	ctx := context.Background()
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Limits: Limits{MovesPerSecond: 2}})
	m, err := l.Create(ctx, Player{ID: "key:hana"}, CreateOptions{Seats: 1, HasSeed: true, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, Player{ID: "key:hana", Name: "hana"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	bogus := json.RawMessage(`{"kind":"nonsense"}`)
	// Judged, refused by the limit, or played (which must never happen).
	outcome := func(err error) string {
		var lim *LimitError
		switch {
		case errors.As(err, &lim):
			return "limited"
		case err != nil:
			return "judged"
		}
		return "played"
	}
	for i := range 4 { // the burst passes at once
		if got := outcome(c.Move(ctx, bogus)); got != "judged" {
			t.Fatalf("move %d of the burst %s", i, got)
		}
	}
	// Six more at once (a key-repeat storm in the terminal): two wait half
	// a second and a second, the rest would wait longer and are refused.
	start := time.Now()
	results := make(chan string)
	for range 6 {
		go func() { results <- outcome(c.Move(ctx, bogus)) }()
	}
	got := map[string]int{}
	for range 6 {
		got[<-results]++
	}
	if got["judged"] != 2 || got["limited"] != 4 {
		t.Errorf("six moves past the burst of a 2-a-second limit: %v", got)
	}
	if took := time.Since(start); took < 900*time.Millisecond {
		t.Errorf("the moves past the burst did not wait: all took %s", took)
	}
	if u := latest(t, c); u.Version != 0 {
		t.Errorf("version %d after refused moves", u.Version)
	}
}
