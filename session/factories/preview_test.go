package factories

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestPreviewTextKeysOnAllItDraws asks the shared preview cache for
// every card a board lists, in two languages, two themes and two
// widths, twice over, and holds each answer to the card's text drawn
// afresh (fitted to the width): a text cached for one language, theme,
// card or width is never given for another.
func TestPreviewTextKeysOnAllItDraws(t *testing.T) {
	s := playedTo(t, func(s factories.State) bool { return s.Round >= 3 && s.Phase == factories.WorkPhase })
	v := factories.ViewOf(s, 0)
	b := &board{v: &v}
	for range 2 {
		for _, tag := range []lang.Tag{lang.English, lang.Polish} {
			seats := kit.Seats{Names: []string{"a", "b", "c", "d"}, Bots: make([]string, 4), L: lang.For(tag)}
			for _, theme := range []string{"default", "mono"} {
				th := kit.NewTheme(theme, nil).In(seats.L)
				for _, c := range b.Cards(seats) {
					for _, w := range []int{30, 44} {
						want := b.CardText(th, c, w)
						want = fitWidth(want[:strings.LastIndex(want, "\n")], w)
						if got := b.previewText(th, c, w); got != want {
							t.Fatalf("%s in %s, %s, %d columns: preview %q, want %q", c.Key, tag, theme, w, got, want)
						}
					}
				}
			}
		}
	}
}
