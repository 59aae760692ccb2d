package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestKeysPagesWhole: every keys page, in every language, at the
// smallest screen, shows every line it has: a page taller than its body
// (the game's keys and how to play, in Polish at 80x24) scrolls with ↑/↓
// and says on its last line how much is above and below, rather than
// losing its end; and its title is in the reader's language.
func TestKeysPagesWhole(t *testing.T) {
	w, h := MinWidth, MinHeight-4 // the body under the header, banner, status line and bar
	for _, tag := range []lang.Tag{lang.English, lang.Portuguese, lang.Polish, lang.Russian} {
		th := kit.NewTheme("mono", nil).In(lang.For(tag))
		pages := map[string]*helpOverlay{}
		for set, km := range gameKeySets {
			o := newHelpOverlay(th, w, h, th.L.T("session.keys.title"), km)
			o.note, o.game, o.set = th.L.T("session.game.howToPlay"), true, set
			pages["game "+string(rune('0'+set))] = o
		}
		pages["replay"] = newHelpOverlay(th, w, h, th.L.T("session.keys.title"), replayKeyMap)
		for name, o := range pages {
			want := strings.Split(ansi.Strip(o.page(th, w)), "\n")
			if !strings.Contains(want[0], th.L.T("session.keys.title")) {
				t.Errorf("%s %s: the title is %q", tag, name, want[0])
			}
			seen := map[string]bool{}
			var ov overlay = o
			for range len(want) {
				view := strings.Split(ansi.Strip(ov.view(th, w, h)), "\n")
				if len(view) != h {
					t.Fatalf("%s %s: %d lines in a body of %d", tag, name, len(view), h)
				}
				for _, l := range view {
					seen[strings.TrimRight(l, " ")] = true
				}
				if len(want) > h && !strings.ContainsAny(view[h-1], "↑↓") {
					t.Errorf("%s %s: a page cut without a marker:\n%s", tag, name, strings.Join(view, "\n"))
				}
				if len(want) > h && !strings.Contains(helpBar(th, ov.keys(), w), "↑/↓") {
					t.Errorf("%s %s: the bar under a cut page does not say it scrolls", tag, name)
				}
				if len(want) <= h {
					break
				}
				if ov, _ = ov.update(tea.KeyMsg{Type: tea.KeyDown}); ov == nil {
					t.Fatalf("%s %s: ↓ closed a page that is cut", tag, name)
				}
			}
			for _, l := range want {
				if l = strings.TrimRight(l, " "); !seen[l] {
					t.Errorf("%s %s at %dx%d never shows %q", tag, name, w, h, l)
				}
			}
			if next, _ := o.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}); next != nil {
				t.Errorf("%s %s: a key other than ↑/↓ left the page open", tag, name)
			}
		}
	}
}

var _ help.KeyMap = helpScrollKeyMap
