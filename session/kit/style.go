package kit

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Style is one of a theme's styles: a lipgloss.Style that draws a line
// from the escape sequences it opens and closes with. A frame renders a
// few hundred short pieces (a name in its seat's colour, a dimmed note),
// and lipgloss works out every property of the style, its borders, margins
// and alignment for each: a sixth of a game frame's CPU. A theme's styles
// set colours and attributes only, so on a line without tabs lipgloss
// writes the opening sequence, the text and the reset, and Render does the
// same itself; anything else (several lines, tabs, a width set through
// the embedded lipgloss.Style's methods) is lipgloss's to draw.
type Style struct {
	lipgloss.Style
	open, close string
}

// paint makes st a Style: what it opens and closes a line with is read
// from st's own rendering of a marker.
func paint(st lipgloss.Style) Style {
	open, close, _ := strings.Cut(st.Render("\x00"), "\x00")
	return Style{Style: st, open: open, close: close}
}

// Paint is st as a Style, for a game's own colours: a line rendered with
// it is written between what st writes around any line, without
// lipgloss's work of looking up every property st does not set.
func Paint(st lipgloss.Style) Style { return paint(st) }

// Render draws strs joined by spaces, as lipgloss.Style.Render does.
func (s Style) Render(strs ...string) string {
	str := strings.Join(strs, " ")
	if strings.ContainsAny(str, "\n\t") {
		return s.Style.Render(str)
	}
	return s.open + str + s.close
}
