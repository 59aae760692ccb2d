package session

import (
	"io"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/smokestack/smokestack/session/kit"
)

// A help bar from the cache is the bar drawn afresh, for every theme and
// width; a key turned off, or another theme, is another bar.
func TestHelpBarsCached(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	for _, th := range []kit.Theme{kit.NewTheme("default", r), kit.NewTheme("colorblind", r), kit.NewTheme("mono", nil)} {
		for _, km := range []help.KeyMap{gameKeyMap, watchKeys{gameKeyMap}, lobbyKeyMap, replayKeyMap} {
			for _, w := range []int{80, 97, 120, 160} {
				for range 2 { // drawn, then from the cache
					if got, want := helpBar(th, km, w), drawHelpBar(th, km, w); got != want {
						t.Fatalf("%s %T at %d: cached %q, drawn %q", th.Name, km, w, got, want)
					}
				}
			}
		}
	}
	km := gameKeyMap
	before := helpBar(kit.NewTheme("mono", nil), km, 120)
	km.Card = key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "card info"), key.WithDisabled())
	if after := helpBar(kit.NewTheme("mono", nil), km, 120); after == before || after != drawHelpBar(kit.NewTheme("mono", nil), km, 120) {
		t.Errorf("with card info off the bar is %q (it was %q)", after, before)
	}
	if helpBar(kit.NewTheme("default", r), gameKeyMap, 120) == before {
		t.Error("the default theme's bar is the mono one")
	}
}
