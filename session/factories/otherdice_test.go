package factories

import (
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// TestOthersDiceShowAt80x24: five players in the work phase, seated at
// 80x24: every other seat that holds free dice shows them (its dice line, the
// "dice" word of diceView), the compound counted where it gives way; a
// spectator saw them and a seated player did not (issue 36, point 9).
func TestOthersDiceShowAt80x24(t *testing.T) {
	th := kit.NewTheme("mono", nil)
	names := kit.Seats{Names: []string{"alice", "random bot 2", "random bot 3", "random bot 4", "random bot 5"}, Bots: make([]string, 5)}
	s, err := factories.New(factories.Config{Players: 5}, 5)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for step := 0; step < 400 && s.Phase != factories.GameOver; step++ {
		seat := factories.StatusOf(s).Acting[0]
		v := factories.ViewOf(s, seat)
		if v.Phase == factories.WorkPhase {
			names.Viewer = seat
			others := othersView(th, &v, names, 80-80*52/100-1, 20-8)
			for _, p := range v.Players {
				if p.Seat == seat || !slices.ContainsFunc(p.Dice, func(d factories.Die) bool { return !d.Placed }) {
					continue
				}
				want := diceView(th, &v, p)
				if !strings.Contains(others, want) {
					t.Fatalf("step %d, seat %d's view: seat %d's dice %q are not shown:\n%s", step, seat, p.Seat, want, others)
				}
				checked++
			}
		}
		if s, _, err = factories.Apply(s, seat, v.Legal[step%len(v.Legal)]); err != nil {
			t.Fatal(err)
		}
	}
	if checked == 0 {
		t.Fatal("no work phase with another seat's dice")
	}
}
