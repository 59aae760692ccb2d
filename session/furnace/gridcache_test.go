package furnace

import (
	"slices"
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestGridRowsKeyed draws a grid, then the same grid with one thing its
// rows' drawing reads changed, and compares that with a drawing made
// with nothing kept: a rowKey missing what changed hands the first
// grid's rows back.
func TestGridRowsKeyed(t *testing.T) {
	base := func() (grid, int, int) {
		g := grid{head: []string{"", "player", "cards"}, sep: " · ", noun: "furnace.count.cards", p: lang.For(lang.English),
			rows: []gridRow{
				{cells: []string{"▶", "alice"}, items: []string{"AAA-01", "BBB-02", "CCC-03", "DDD-04", "EEE-05", "FFF-06"}},
				{cells: []string{" ", "bob"}, items: []string{"GGG-07", "HHH-08"}, more: "y"},
				{cells: []string{" ", "dave"}, items: []string{"a-card-too-wide-for-its-column", "III-09"}},
			}}
		return g, 30, 1
	}
	changes := map[string]func(g *grid, w, maxLines *int){
		"language": func(g *grid, _, _ *int) { g.p = lang.For(lang.Polish) },
		"cell":     func(g *grid, _, _ *int) { g.rows[0].cells[1] = "carol" },
		"width of another row's cell": func(g *grid, _, _ *int) {
			g.rows[1].cells[1] = "bartholomew"
		},
		"width of a head's cell": func(g *grid, _, _ *int) { g.head[1] = "the player" },
		"item":                   func(g *grid, _, _ *int) { g.rows[0].items[0] = "ZZZ-26" },
		"items split otherwise": func(g *grid, _, _ *int) {
			g.rows[1].items = []string{"GGG-07\x00HHH-08"}
		},
		"items split otherwise, as many": func(g *grid, _, _ *int) {
			g.rows[1].items = []string{"GGG-07H", "HH-08"}
		},
		"no item":   func(g *grid, _, _ *int) { g.rows[1].items = nil; g.rows[1].more = "" },
		"one empty": func(g *grid, _, _ *int) { g.rows[1].items = []string{""}; g.rows[1].more = "" },
		"separator": func(g *grid, _, _ *int) { g.sep = " > " },
		"noun":      func(g *grid, _, _ *int) { g.noun = "furnace.count.discs" },
		"more":      func(g *grid, _, _ *int) { g.rows[0].more = "y" },
		// The items under the row, as wide as they were beside it.
		"below":    func(g *grid, w, _ *int) { g.below, *w = true, *w-9+4 },
		"width":    func(_ *grid, w, _ *int) { *w = 24 },
		"lines":    func(_ *grid, _, maxLines *int) { *maxLines = 2 },
		"no limit": func(_ *grid, _, maxLines *int) { *maxLines = 0 },
		"narrow":   func(_ *grid, w, maxLines *int) { *w, *maxLines = 14, 0 },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			g, w, maxLines := base()
			change(&g, &w, &maxLines)
			gridRows = kit.NewShared[rowKey, []string](1024)
			fresh := g.lines(w, maxLines)
			gridRows = kit.NewShared[rowKey, []string](1024)
			b, bw, bMax := base()
			first := b.lines(bw, bMax)
			if got := g.lines(w, maxLines); !slices.Equal(got, fresh) {
				t.Errorf("after %q, drawn:\n%q\nfresh:\n%q", first, got, fresh)
			}
		})
	}
}
