package session

import (
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestMenuRowsTellMovesApart: a menu row cut to its width still tells its
// move from the group's others. Cut where it shared the most words with
// any one of them, "Pay 1 metal to refresh the blueprints" and "Pay 1
// energy to refresh the blueprints" were both drawn "… the blueprints".
// Every group of every menu a random game of each game offers, in every
// language and at widths from a narrow screen's to a wide one's.
func TestMenuRowsTellMovesApart(t *testing.T) {
	for _, g := range games.All() {
		for _, seats := range []int{1, 3} {
			if lo, hi := g.Rules.Seats(); seats < lo || seats > hi {
				continue // Furnace has no solo game
			}
			checked := 0
			playRandomEach(t, g, seats, 7, func(state engine.State, seat int) {
				v, err := g.Rules.ViewValue(state, seat)
				if err != nil {
					t.Fatal(err)
				}
				b, err := g.Screen.Decode(v)
				if err != nil {
					t.Fatal(err)
				}
				for _, tag := range lang.Tags {
					s := kit.Seats{Names: []string{"ann", "ben", "cat"}[:seats], Bots: make([]string, seats), Viewer: seat, L: lang.For(tag)}
					for _, grp := range b.Menu(s) {
						for _, w := range []int{18, 26, 36, 48} {
							shown := map[string]string{}
							for i, mv := range grp.Moves {
								row := differing(grp.Moves, i, w)
								if other, ok := shown[row]; ok && other != mv.Label {
									t.Fatalf("%s, %s, %d wide, group %q: %q and %q are both drawn %q", g.Name(), tag, w, grp.Title, other, mv.Label, row)
								}
								shown[row] = mv.Label
								checked++
							}
						}
					}
				}
			})
			if checked == 0 {
				t.Fatalf("%s, %d seats: no menu row checked", g.Name(), seats)
			}
		}
	}
}
