package furnace

import (
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestPreviewLinesKeyOnAllTheyDraw asks the shared preview cache for
// every card a board lists, in two languages, two themes, two widths and
// both Arthur timings, twice over, and holds each answer to the card's
// text drawn afresh: a text cached for one is never given for another.
func TestPreviewLinesKeyOnAllTheyDraw(t *testing.T) {
	s, err := furnace.New(furnace.Config{Players: 4, Capitalists: true}, 5)
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(5)
	for s.Round < 2 {
		acting := furnace.StatusOf(s).Acting
		seat := acting[rng.Intn(len(acting))]
		legal := furnace.Legal(s, seat)
		if err := s.Play(seat, legal[rng.Intn(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		for _, arthur := range []furnace.ArthurTiming{furnace.ArthurPaired, ""} {
			v := furnace.ViewOf(s, 0)
			v.Config.Arthur = arthur
			b := &board{v: &v}
			for _, tag := range []lang.Tag{lang.English, lang.Polish} {
				seats := kit.Seats{Names: []string{"a", "b", "c", "d"}, L: lang.For(tag)}
				for _, theme := range []string{"default", "mono"} {
					th := kit.NewTheme(theme, nil).In(seats.L)
					arthurRef := kit.CardRef{Key: "capitalist:" + string(furnace.Arthur), Name: "Arthur", Where: "at the table"}
					for _, c := range append(b.Cards(seats), arthurRef) {
						for _, w := range []int{30, 50} {
							want := strings.Split(b.CardText(th, c, w), "\n")
							if got := b.previewLines(th, c, w); !slices.Equal(got, want[:len(want)-1]) {
								t.Fatalf("%s in %s, %s, %d columns, Arthur %q: preview %q, want %q", c.Key, tag, theme, w, arthur, got, want)
							}
						}
					}
				}
			}
		}
	}
}
