package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/session/kit"
)

// TestMenuKeepsItsMoreLine: however long the selected move's label, the
// menu fits its height and still says how many moves are below.
func TestMenuKeepsItsMoreLine(t *testing.T) {
	g := kit.MoveGroup{Key: "g", Title: "card 3: oil-06"}
	for i := range 12 {
		g.Moves = append(g.Moves, kit.MenuMove{Label: fmt.Sprintf("Place your %d on oil-06 and the neutral 2 on a card far to the right, number %d", i%4+1, i)})
	}
	th := kit.NewTheme("mono", nil)
	for _, h := range []int{3, 5, 8} {
		for item := range g.Moves {
			m := menu{groups: []kit.MoveGroup{g}, item: item}
			lines := strings.Split(m.view(th, 44, h, false), "\n")
			if len(lines) > h {
				t.Fatalf("h %d, item %d: %d lines:\n%s", h, item, len(lines), strings.Join(lines, "\n"))
			}
			if item < len(g.Moves)-1 && !strings.Contains(lines[len(lines)-1], "more (↓)") {
				t.Fatalf("h %d, item %d: no \"more\" line:\n%s", h, item, strings.Join(lines, "\n"))
			}
			if !strings.Contains(strings.Join(lines, " "), "▸ ") {
				t.Fatalf("h %d, item %d: the selected move is not shown:\n%s", h, item, strings.Join(lines, "\n"))
			}
		}
	}
}
