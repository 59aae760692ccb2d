package session

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/bubbles/help"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestHelpBarsKeepEveryKey: a help bar too long for its width drops keys
// from its end, so a language whose hints run longer showed fewer keys
// than English at the same width (the Portuguese, Polish and Russian bars
// lost s solo, t chat, i card info, ←/→ karta). At every width a screen
// has, every language's bar shows every key English's shows.
func TestHelpBarsKeepEveryKey(t *testing.T) {
	maps := map[string]help.KeyMap{"lobby": lobbyKeyMap, "chat": chatKeyMap, "overlay": overlayKeyMap, "log": logKeyMap,
		"rules": rulesKeyMap, "form": formKeyMap, "prompt": promptKeyMap, "replay": replayKeyMap}
	for i, km := range gameKeySets {
		maps[fmt.Sprintf("game%d", i)] = km
	}
	shown := func(tag lang.Tag, km help.KeyMap, w int) int {
		th := kit.NewTheme("mono", nil)
		th.L = lang.For(tag)
		h := help.New()
		h.ShortSeparator = " · "
		return len(fitKeys(h, wordedKeys(th, km).ShortHelp(), w))
	}
	for _, w := range []int{80, 100, 120, 160} {
		for name, km := range maps {
			en := shown(lang.English, km, w)
			for _, tag := range lang.Tags[1:] {
				if n := shown(tag, km, w); n < en {
					t.Errorf("%s: the %s bar at %d columns shows %d keys; English shows %d", tag, name, w, n, en)
				}
			}
		}
	}
}
