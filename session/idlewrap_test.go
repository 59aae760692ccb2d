package session_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// TestIdleWrapped holds the move menu's idle text (why the seat has
// nothing to play: "you are done: waiting for the others to finish
// working") to being read whole: wrapped to the menu's column, never cut
// with "…" by the column. Each game's idle texts, in every language and
// the pseudo-locale (whose words run longest), are drawn at every width
// from 80 to 200 columns, 24 and 40 lines high.
func TestIdleWrapped(t *testing.T) {
	for _, game := range []string{"factories", "furnace"} {
		conns, ups := gameTable(t, game, 40, byNumber)
		for _, tag := range append(slices.Clone(lang.Tags), lang.Pseudo) {
			title := lang.For(tag).T("session.menu.title")
			// One seat and update for each idle text the game shows.
			type at struct{ seat, update int }
			var idle []at
			seen := map[string]bool{}
			models := tableScreens(conns, "mono", tag, 80, 24)
			for u := range ups[0] {
				for s, m := range models {
					m.Update(session.Updated(conns[s], ups[s][u]))
					p, _ := session.ProbeGame(m)
					if text, ok := p.Idle(); ok && !seen[text] {
						seen[text] = true
						idle = append(idle, at{s, u})
					}
				}
			}
			if len(idle) == 0 {
				t.Fatalf("%s %s: no seat was idle in %d updates", game, tag, len(ups[0]))
			}
			for _, h := range []int{24, 40} {
				for w := 80; w <= 200; w++ {
					models := tableScreens(conns, "mono", tag, w, h)
					for _, a := range idle {
						m := models[a.seat]
						m.Update(session.Updated(conns[a.seat], ups[a.seat][a.update]))
						p, _ := session.ProbeGame(m)
						text, _ := p.Idle()
						frame := ansi.Strip(m.View())
						if err := idleShown(frame, title, text); err != nil {
							t.Fatalf("%s %s %dx%d seat %d update %d: %v\n%s", game, tag, w, h, a.seat, a.update, err, frame)
						}
					}
				}
			}
		}
	}
}

// idleShown checks that frame shows text's words whole and in order in
// the column under the menu's title: on the lines below it, from the
// title's column on, each line going on with the text's next words (and
// then, past the menu's column, whatever is beside it).
func idleShown(frame, title, text string) error {
	lines := strings.Split(frame, "\n")
	row := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, title) })
	if row < 0 {
		return fmt.Errorf("no menu title %q", title)
	}
	x := kit.Width(lines[row][:strings.Index(lines[row], title)])
	words := strings.Fields(text)
	next := 0
	for _, l := range lines[row+1:] {
		if next == len(words) {
			return nil
		}
		took := 0
		for _, f := range strings.Fields(ansi.Cut(l, x, kit.Width(l))) {
			if next == len(words) || f != words[next] {
				break
			}
			next, took = next+1, took+1
		}
		if took == 0 {
			break
		}
	}
	if next < len(words) {
		return fmt.Errorf("idle text %q shown only to %q, then cut", text, strings.Join(words[:next], " "))
	}
	return nil
}
