package furnace

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestOwnNameAsWholeAsOthers: the players' table cuts a seat's own name
// no shorter than the others': the names the server gives ("player-" and
// four letters) showed whole for every other seat, and as "player-b2…
// (you)" for one's own, at 80 columns and at 120.
func TestOwnNameAsWholeAsOthers(t *testing.T) {
	names := []string{"player-b2d4", "player-2732", "player-b49c"}
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		for _, cfg := range []furnace.Config{{Players: 3}, {Players: 3, Capitalists: true}} {
			s, err := furnace.New(cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			for viewer := range names {
				v := furnace.ViewOf(s, viewer)
				b := &board{v: &v}
				seats := kit.Seats{Names: names, Viewer: viewer, L: th.L}
				for _, sz := range [][2]int{{80, 20}, {120, 36}} {
					f := kit.Frame{Theme: th, Seats: seats, Width: sz[0], Height: sz[1],
						Menu: func(w, h int) string { return kit.Fit("MOVES", w, h) },
						Log:  func(w, h int) string { return kit.Fit("LOG", w, h) }}
					out := ansi.Strip(b.Draw(f))
					if want := th.L.T("furnace.players.you", "Name", names[viewer]); !strings.Contains(out, want) {
						t.Errorf("%s %+v viewer %d at %dx%d: no %q in the players' table:\n%s", tag, cfg, viewer, sz[0], sz[1], want, out)
					}
				}
			}
		}
	}
}
