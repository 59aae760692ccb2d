package session

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/session/kit"
)

// TestHintRowKeepsWorthWhole: at every width from 20 to 90 cells, a
// hinted move's lines fit the width and show its worth whole on one of
// them, in words as long as any catalogue's.
func TestHintRowKeepsWorthWhole(t *testing.T) {
	label := "Contractor 1: Investor: Hire Investor, discarding Recycling Plant"
	for _, worth := range []string{"worth +3.0", "⟦ŵöŕţĥ +12.5⟧", "стоит -1,8", "warty +0,4"} {
		for w := 20; w <= 90; w++ {
			lines := hintRow(3, label, worth, w)
			whole := 0
			for _, l := range lines {
				if kit.Width(l) > w {
					t.Errorf("width %d: the line %q is %d cells wide", w, l, kit.Width(l))
				}
				whole += strings.Count(l, "· "+worth)
			}
			if whole != 1 {
				t.Errorf("width %d: %q shows whole on %d lines, want 1:\n%s", w, worth, whole, strings.Join(lines, "\n"))
			}
			if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != "3. "+label+" · "+worth {
				t.Errorf("width %d: the move reads %q", w, got)
			}
		}
	}
}
