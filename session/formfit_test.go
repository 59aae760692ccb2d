package session

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestFormFitsEveryLanguage: the new-room form and its help fit the
// least screen's body (80 columns, 20 rows) in every language, for every
// game, field, number of seats and bots and choice of visibility: no
// line is cut, whatever a translation's length.
func TestFormFitsEveryLanguage(t *testing.T) {
	gs := games.Lobby(games.All())
	w, h := MinWidth, MinHeight-4
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		f := newRoomForm(gs, th.L)
		for g := range gs {
			f.setGame(g)
			lo, hi := gs[g].Rules.Seats()
			for seats := lo; seats <= hi; seats++ {
				for _, public := range []bool{true, false} {
					f.seats, f.public, f.bots, f.clock = seats, public, seats-1, 0
					for field := range f.fields() {
						f.field = field
						for _, help := range []bool{false, true} {
							f.help = help
							v := f.view(th, w)
							lines := strings.Split(v, "\n")
							if len(lines) > h {
								t.Fatalf("%s %s, %d seats, field %d, help %v: %d lines:\n%s", tag, gs[g].Name(), seats, field, help, len(lines), v)
							}
							for _, l := range lines {
								if kit.Width(l) > w {
									t.Fatalf("%s %s, field %d, help %v: a line %d wide: %q", tag, gs[g].Name(), field, help, kit.Width(l), l)
								}
							}
						}
					}
				}
			}
		}
	}
}
