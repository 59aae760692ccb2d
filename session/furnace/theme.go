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

// seatStyle is the style of a seat's name, made once for each theme and
// colour (seatStyles): the market names each disc's seat, and a
// lipgloss style made and rendered anew for each was a fifth of a
// Furnace frame.
func seatStyle(t kit.Theme, seat int) kit.Style {
	colour := -1 // uncoloured
	if cs, ok := seatColours[t.Name]; ok && seat >= 0 {
		colour = seat % len(cs)
	}
	return seatStyles.Get(seatStyleKey{t.Styles, colour}, func() kit.Style {
		st := t.Style()
		if colour >= 0 {
			st = st.Foreground(lipgloss.Color(seatColours[t.Name][colour]))
		}
		return kit.Paint(st)
	})
}

// seatStyles are seatStyle's styles by theme and colour: a theme's
// styles render for one colour profile.
var seatStyles = kit.NewShared[seatStyleKey, kit.Style](64)

type seatStyleKey struct {
	styles *kit.Styles
	colour int
}
