package kit

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestStyleRendersAsLipgloss holds every style of every theme, on every
// colour profile, to drawing what lipgloss draws, whatever the text.
func TestStyleRendersAsLipgloss(t *testing.T) {
	texts := [][]string{{""}, {"plain"}, {"two", "words"}, {"★ 3 · café"}, {"a\tb"}, {"line\nline"}, {"cr\r\nlf"},
		{"\x1b[1mbold\x1b[0m"}, {" padded "}, {"漢字 👍🏽"}, {"end\n"}, {}}
	for _, name := range ThemeNames {
		for _, p := range []termenv.Profile{termenv.Ascii, termenv.ANSI, termenv.ANSI256, termenv.TrueColor} {
			r := lipgloss.NewRenderer(io.Discard)
			r.SetColorProfile(p)
			th := NewTheme(name, r)
			styles := map[string]Style{"Title": th.Title, "Dim": th.Dim, "Accent": th.Accent, "Selected": th.Selected,
				"Good": th.Good, "Bad": th.Bad, "Banner": th.Banner, "Bar": th.Bar, "seat -1": th.SeatStyle(-1)}
			for seat := range 9 {
				styles["seat"] = th.SeatStyle(seat)
				for what, st := range styles {
					for _, strs := range texts {
						if got, want := st.Render(strs...), st.Style.Render(strs...); got != want {
							t.Errorf("%s on %v, %s: Render(%q) = %q, lipgloss draws %q", name, p, what, strs, got, want)
						}
					}
				}
			}
		}
	}
}
