package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestHelpBarKeepsTheWayOut: at every width from the minimum up, each
// screen's help bar fits and shows its last two keys (all keys, and the
// way out) whole; the keys before them give way from the end.
// Every language's, whose words run longer than English's.
func TestHelpBarKeepsTheWayOut(t *testing.T) {
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		t.Run(string(tag), func(t *testing.T) { helpBarsKeepTheWayOut(t, th) })
	}
}

func helpBarsKeepTheWayOut(t *testing.T, th kit.Theme) {
	for name, km := range map[string]help.KeyMap{"game": gameKeyMap, "watch": watchKeys{gameKeyMap}, "over": overKeys{gameKeyMap},
		"chat": chatKeyMap, "lobbychat": lobbyChatKeys{chatKeyMap},
		"lobby": lobbyKeyMap, "replay": replayKeyMap, "form": formKeyMap, "log": logKeyMap, "prompt": promptKeyMap} {
		keys := wordedBindings(th, km.ShortHelp())
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

// TestKeysScreenListsEveryKey: the ? screen of each screen lists every
// key of its map whole at every width from the minimum up, within the
// width: columns that do not fit side by side go below, none is cut.
func TestKeysScreenListsEveryKey(t *testing.T) {
	for _, tag := range lang.Tags {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		t.Run(string(tag), func(t *testing.T) { keysScreensListEveryKey(t, th) })
	}
}

func keysScreensListEveryKey(t *testing.T, th kit.Theme) {
	for name, km := range map[string]help.KeyMap{"game": gameKeyMap, "watch": watchKeys{gameKeyMap}, "over": overKeys{gameKeyMap},
		"lobby": lobbyKeyMap, "replay": replayKeyMap} {
		for w := MinWidth; w <= 250; w++ {
			s := keysHelp(th, "KEYS", km, w)
			for _, l := range strings.Split(s, "\n") {
				if n := ansi.StringWidth(l); n > w {
					t.Fatalf("%s at %d: a line %d wide: %q", name, w, n, l)
				}
			}
			if strings.Contains(s, "…") {
				t.Fatalf("%s at %d columns cuts a column:\n%s", name, w, s)
			}
			for _, col := range wordedKeys(th, km).FullHelp() {
				for _, k := range col {
					if !strings.Contains(s, k.Help().Desc) {
						t.Fatalf("%s at %d columns lacks %q:\n%s", name, w, k.Help().Desc, s)
					}
				}
			}
		}
	}
}

// TestKeysOverlayBar: under the ? screen the help bar says how to close
// it (a binding without keys is disabled, and the bar was blank).
func TestKeysOverlayBar(t *testing.T) {
	if bar := helpBar(kit.NewTheme("mono", nil), (&helpOverlay{}).keys(), MinWidth); !strings.Contains(bar, "any key close") {
		t.Errorf("help bar under the keys: %q", bar)
	}
}

// TestKeysAreWorded: every key's help names a message English has (the
// bindings hold IDs, which the catalogue check cannot see in code), and
// every language words it.
func TestKeysAreWorded(t *testing.T) {
	maps := []help.KeyMap{gameKeyMap, undoKeys{gameKeyMap}, watchKeys{gameKeyMap}, waitingKeys{gameKeyMap}, overKeys{gameKeyMap},
		chatKeyMap, lobbyChatKeys{chatKeyMap}, overlayKeyMap, logKeyMap, rulesKeyMap, rulesPageKeys{rulesKeyMap},
		lobbyKeyMap, formKeyMap, promptKeyMap, replayKeyMap, anyKey{}, confirmKeys{}, helpScrollKeyMap}
	en := lang.For(lang.English)
	for _, km := range maps {
		all := append(km.ShortHelp(), slices.Concat(km.FullHelp()...)...)
		for _, k := range append(all, moveKeysHelp, groupKeysHelp) {
			h := k.Help()
			if !en.Has(h.Desc) {
				t.Errorf("key %q: its help %q is no message", h.Key, h.Desc)
			}
			if strings.HasPrefix(h.Key, "session.") && !en.Has(h.Key) {
				t.Errorf("key name %q is no message", h.Key)
			}
		}
	}
}

// TestKeysOffTheMenuNameNoMoves: a key of a screen without the move menu
// (an overlay, the lobby, the chat, a form) is never worded as the
// menu's moving keys are: the log's home/end go to its first and last
// lines, not "first/last move".
func TestKeysOffTheMenuNameNoMoves(t *testing.T) {
	g := gameKeyMap
	menu := map[string]bool{}
	for _, k := range []key.Binding{g.NextGroup, g.PrevGroup, g.Up, g.Down, g.First, g.Last, g.PageUp, g.PageDown, g.Play} {
		menu[k.Help().Desc] = true
	}
	for _, km := range []help.KeyMap{chatKeyMap, lobbyChatKeys{chatKeyMap}, overlayKeyMap, logKeyMap, rulesKeyMap,
		rulesPageKeys{rulesKeyMap}, lobbyKeyMap, formKeyMap, promptKeyMap, anyKey{}, confirmKeys{}, helpScrollKeyMap} {
		for _, k := range append(km.ShortHelp(), slices.Concat(km.FullHelp()...)...) {
			if menu[k.Help().Desc] {
				t.Errorf("%T: key %s is worded %q, as the move menu's", km, k.Help().Key, lang.For(lang.English).T(k.Help().Desc))
			}
		}
	}
}
