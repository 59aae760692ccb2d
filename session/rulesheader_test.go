package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/session/kit"
)

// TestRulesHeaderSameOnEveryPage: the lobby's rules of every game name
// the games on every page or on none, never on some (issue 25, point 13).
func TestRulesHeaderSameOnEveryPage(t *testing.T) {
	pages := []kit.RulesPage{
		{Title: "Furnace: the goal", Text: "a"},
		{Title: "Fantastic Factories: the work phase, dice and workers", Text: "b"},
	}
	th := kit.NewTheme("mono", lipgloss.DefaultRenderer())
	for _, w := range []int{80, 100, 160} {
		o := newRulesOverlay(th, "Fantastic Factories · Furnace", pages, w, 24)
		var named []bool
		for range pages {
			head := strings.SplitN(o.view(th, w, 24), "\n", 2)[0]
			named = append(named, strings.Contains(head, "Furnace · page"))
			o.page++
		}
		if named[0] != named[1] {
			t.Errorf("at %d columns the pages' headers differ: named %v", w, named)
		}
	}
}
