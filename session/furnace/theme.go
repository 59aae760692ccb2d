package furnace

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/smokestack/smokestack/session/kit"
)

// seatColours tint the seats' names by theme name, so a glance at the
// market tells whose discs are whose; the mono theme has none. The names
// are always written, so no seat rests on colour alone. The colour-blind
// theme uses Okabe–Ito.
var seatColours = map[string][]string{
	"default":    {"39", "213", "220", "118"},
	"colorblind": {"#56B4E9", "#CC79A7", "#F0E442", "#E69F00"},
}

// seatStyle is the style of a seat's name.
func seatStyle(t kit.Theme, seat int) lipgloss.Style {
	st := t.Style()
	if cs, ok := seatColours[t.Name]; ok && seat >= 0 {
		st = st.Foreground(lipgloss.Color(cs[seat%len(cs)]))
	}
	return st
}
