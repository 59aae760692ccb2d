package factories

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestMarketNamesAloneOnlyWhenTheyMust: a blueprint's name goes on a line
// of its own, its tool and cost below, only where the row would not fit
// beside it even with the narrowest gaps: the spectator's 38-column
// market broke "Aluminum Factory" over two lines with room to spare.
func TestMarketNamesAloneOnlyWhenTheyMust(t *testing.T) {
	for _, players := range []int{1, 3} {
		s, err := factories.New(factories.Config{Players: players}, uint64(players))
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 200 && s.Phase != factories.GameOver; step++ {
			seat := factories.StatusOf(s).Acting[0]
			v := factories.ViewOf(s, seat)
			for _, tag := range lang.Tags {
				th := kit.NewTheme("mono", nil).In(lang.For(tag))
				for _, w := range []int{80 * 48 / 100, 80 * 52 / 100, 120 * 48 / 100} {
					checkNamesAlone(t, th, &v, w)
				}
			}
			if s, _, err = factories.Apply(s, seat, v.Legal[step%len(v.Legal)]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func checkNamesAlone(t *testing.T, th kit.Theme, v *factories.View, w int) {
	t.Helper()
	lines := strings.Split(marketView(th, v, w), "\n")
	for i, c := range v.Market.Blueprints {
		if c == factories.None {
			continue
		}
		b := c.Info()
		name := cardName(th, b.Name)
		alone := fmt.Sprintf("%d %s", i+1, name)
		if !strings.Contains(strings.Join(lines, "\n"), alone+"\n") {
			continue
		}
		row := 2 + kit.Width(name) + kit.Width(fmt.Sprintf(" %s %s ★%d", padTool(th, b.Tool), costShort(th, b.Metal, b.Energy), b.Prestige))
		if row <= w {
			t.Fatalf("%s at %d columns: %q alone on its line, though its row is %d wide:\n%s", th.L.Tag(), w, name, row, strings.Join(lines, "\n"))
		}
	}
}
