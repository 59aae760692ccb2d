package factories

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestWidgetsFitInEveryLanguage draws the board's parts for positions of
// seeded games at the column widths of an 80x24 and a 120x40 terminal,
// in every language: no line is wider than its column, so the frame's
// Fit never has to cut one.
func TestWidgetsFitInEveryLanguage(t *testing.T) {
	names := kit.Seats{Names: []string{"alice", "bob", "carol", "dave", "erin"}, Bots: make([]string, 5)}
	for _, players := range []int{1, 2, 3, 4, 5} {
		s, err := factories.New(factories.Config{Players: players}, uint64(players))
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 400 && s.Phase != factories.GameOver; step++ {
			seat := factories.StatusOf(s).Acting[0]
			v := factories.ViewOf(s, seat)
			if step%4 == 0 {
				names.Viewer = seat
				for _, tag := range lang.Tags {
					checkFit(t, kit.NewTheme("mono", nil).In(lang.For(tag)), &v, names)
				}
			}
			if s, _, err = factories.Apply(s, seat, v.Legal[step%len(v.Legal)]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func checkFit(t *testing.T, th kit.Theme, v *factories.View, s kit.Seats) {
	t.Helper()
	for _, size := range [][2]int{{80, 20}, {120, 36}} { // the board's body
		w, h := size[0], size[1]
		lw, rw := w*52/100, w-w*52/100-1
		parts := map[string]struct {
			text string
			w    int
		}{
			"market": {marketView(th, v, lw), lw},
			"you":    {youView(th, v, s, lw, h-10), lw},
			"others": {othersView(th, v, s, rw, h-8), rw},
			"public": {othersView(th, v, s, w-w*48/100-1, h), w - w*48/100 - 1},
		}
		for name, p := range parts {
			for _, line := range strings.Split(p.text, "\n") {
				if kit.Width(line) > p.w {
					t.Fatalf("%s at %dx%d: a %s line is %d wide, its column %d: %q",
						th.L.Tag(), w, h, name, kit.Width(line), p.w, line)
				}
			}
		}
	}
}
