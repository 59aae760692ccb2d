package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/x/ansi"
)

// TestHelpBarKeepsTheWayOut: at every width from the minimum up, each
// screen's help bar fits and shows its last two keys (all keys, and the
// way out) whole; the keys before them give way from the end.
func TestHelpBarKeepsTheWayOut(t *testing.T) {
	th := NewTheme("mono", nil)
	for name, km := range map[string]help.KeyMap{"game": gameKeyMap, "watch": watchKeys{gameKeyMap}, "over": overKeys{gameKeyMap},
		"chat": chatKeyMap, "lobbychat": lobbyChatKeys{chatKeyMap},
		"lobby": lobbyKeyMap, "replay": replayKeyMap, "form": formKeyMap} {
		keys := km.ShortHelp()
		last := keys[len(keys)-2:]
		for w := MinWidth; w <= 250; w++ {
			bar := helpBar(th, km, w)
			if n := ansi.StringWidth(bar); n > w {
				t.Fatalf("%s at %d: %d wide", name, w, n)
			}
			for _, k := range last {
				want := k.Help().Key + " " + k.Help().Desc
				if !strings.Contains(bar, want) {
					t.Fatalf("%s at %d columns lacks %q: %q", name, w, want, bar)
				}
			}
			if w == 250 && strings.Contains(bar, "…") {
				t.Errorf("%s at 250 columns still cuts: %q", name, bar)
			}
		}
	}
}
