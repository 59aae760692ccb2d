package players

import (
	"context"
	"fmt"
	"testing"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// The leaderboard reads only its best lines, and the viewer's below
// them follows with its true place: the store is never asked for the
// whole board.
func TestTopShowsTheBestAndTheViewer(t *testing.T) {
	ctx := context.Background()
	st := mem.New()
	ps := New(Config{Store: st})
	id := func(i int) string { return fmt.Sprintf("SHA256:p%d", i) }
	for i := range 6 {
		if err := st.CreateProfile(ctx, store.Profile{ID: id(i), Name: fmt.Sprintf("p%d", i), Keys: []string{id(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	for g := range 3 { // p0 beats p1 by the most, p4 beats p5 by the least
		o := store.Outcome{Code: fmt.Sprintf("G%d", g), Game: "tally"}
		for seat := range 2 {
			mu := 30 - float64(g) - 10*float64(seat)
			o.Rated = append(o.Rated, store.RatingChange{Seat: seat, Player: id(2*g + seat),
				Before: store.Rating{Mu: 25, Sigma: 8}, After: store.Rating{Mu: mu, Sigma: 1, Games: 1}})
		}
		if _, err := st.Record(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	// Ordinals: p0 27, p2 26, p4 25, p1 17, p3 16, p5 15.
	top, err := ps.Top(ctx, "tally", id(3), 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		rank int
		you  bool
	}{{"p0", 1, false}, {"p2", 2, false}, {"p3", 5, true}}
	if len(top) != len(want) {
		t.Fatalf("the best 2 as p3 sees them: %+v", top)
	}
	for i, w := range want {
		if top[i].Name != w.name || top[i].Rank != w.rank || top[i].You != w.you {
			t.Errorf("line %d: %+v, want %s at %d (you %v)", i, top[i], w.name, w.rank, w.you)
		}
	}
	if top, err := ps.Top(ctx, "tally", id(2), 2); err != nil || len(top) != 2 || !top[1].You || top[1].Rank != 2 {
		t.Errorf("the best 2 as p2, among them, sees them: %+v, %v", top, err)
	}
}
