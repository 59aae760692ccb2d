package kit

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// Width is the number of cells s takes on a terminal, exactly as
// ansi.StringWidth counts them: escape sequences take none, each grapheme
// cluster its display width. Every line of every frame is measured, some
// several times, and ansi.StringWidth segments every printable ASCII byte
// as a grapheme cluster of its own (since x/ansi v0.11.7), a third of a
// game frame's CPU. Unicode's grapheme rules join no two ASCII characters
// but CR LF, neither of them printable, so a printable ASCII byte
// followed by another ASCII byte, or by the end, is a cluster one cell
// wide: Width counts those itself and asks ansi only about the clusters
// that start at, or just before, a byte that is not ASCII.
func Width(s string) int {
	width := 0
	state := parser.GroundState
	for i := 0; i < len(s); i++ {
		c := s[i]
		if state == parser.GroundState && c >= ' ' && c < 0x7f && (i+1 == len(s) || s[i+1] < 0x80) {
			width++
			continue
		}
		next, action := parser.Table.Transition(state, c)
		if action == parser.PrintAction || next == parser.Utf8State {
			cluster, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			width += w
			i += len(cluster) - 1
			state = parser.GroundState
			continue
		}
		state = next
	}
	return width
}
