package kit

import (
	"strings"
	"testing"
)

// TestWrapKeepsIDsWhole: a card id is one word, whatever lipgloss does
// with hyphens (issue 25, point 13).
func TestWrapKeepsIDsWhole(t *testing.T) {
	text := "bob received 4 coal in compensation for mine-05 (disc 1)"
	for w := 20; w <= 60; w++ {
		for _, l := range strings.Split(Wrap(text, w), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "mine-") {
				t.Fatalf("at %d columns the id breaks at its hyphen:\n%s", w, Wrap(text, w))
			}
		}
		if !strings.Contains(Wrap(text, w), "mine-05") {
			t.Fatalf("at %d columns mine-05 is not whole:\n%s", w, Wrap(text, w))
		}
	}
}
