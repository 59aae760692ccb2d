package session

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Theme is every style the screens use. Views take their styles from one
// Theme value, so the mono and colour-blind themes are a swap of this value
// and nothing else. Information never rests on colour alone: selections
// carry a marker, done seats say "done", and a game's own colours (tools,
// seats) come with a word or a shape.
type Theme struct {
	// Name is "default", "colorblind" or "mono": games pick their own
	// colours by it.
	Name     string
	Title    lipgloss.Style // screen titles and section heads
	Dim      lipgloss.Style // secondary text
	Accent   lipgloss.Style // the player's own things, whose turn it is
	Selected lipgloss.Style // the focused row (after the ▸ marker)
	Good     lipgloss.Style // winners, success
	Bad      lipgloss.Style // errors, warnings, away seats
	Banner   lipgloss.Style // notices across the top
	Bar      lipgloss.Style // score bars
	seats    []lipgloss.Style
	renderer *lipgloss.Renderer
}

// SeatStyle is the seat's colour, for its glyph and name.
func (t Theme) SeatStyle(seat int) lipgloss.Style {
	if seat < 0 || len(t.seats) == 0 {
		return t.Style()
	}
	return t.seats[seat%len(t.seats)]
}

// Style is a new, plain style for this theme's terminal, for a game's own
// colours. In the mono theme colours render as plain text.
func (t Theme) Style() lipgloss.Style { return t.renderer.NewStyle() }

// themeNames are the themes Config.Theme accepts.
var themeNames = []string{"default", "colorblind", "mono"}

// NewTheme returns the theme called name (default when unknown), rendering
// with r. A nil r renders colour as 256-colour ANSI, or plain text for mono.
func NewTheme(name string, r *lipgloss.Renderer) Theme {
	if r == nil {
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.ANSI256)
		r.SetHasDarkBackground(true)
	}
	if name == "mono" {
		// Mono is plain text whatever the terminal says, so goldens and
		// screen readers see the same bytes.
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.Ascii)
	}
	s := r.NewStyle
	t := Theme{Name: name, Title: s().Bold(true), Dim: s().Faint(true), Accent: s().Bold(true),
		Selected: s().Reverse(true), Good: s().Bold(true), Bad: s().Bold(true),
		Banner: s().Bold(true), Bar: s(), renderer: r}
	switch name {
	case "colorblind":
		// Okabe–Ito: distinguishable with every common colour-vision
		// deficiency.
		t.Title = t.Title.Foreground(lipgloss.Color("#56B4E9"))
		t.Accent = t.Accent.Foreground(lipgloss.Color("#009E73"))
		t.Good = t.Good.Foreground(lipgloss.Color("#009E73"))
		t.Bad = t.Bad.Foreground(lipgloss.Color("#D55E00"))
		t.Banner = t.Banner.Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#E69F00"))
		t.Bar = t.Bar.Foreground(lipgloss.Color("#0072B2"))
	case "mono":
		t.Dim, t.Selected, t.Bad, t.Good, t.Accent = s(), s(), s(), s(), s()
	default:
		t.Name = "default"
		t.Title = t.Title.Foreground(lipgloss.Color("208"))
		t.Accent = t.Accent.Foreground(lipgloss.Color("42"))
		t.Good = t.Good.Foreground(lipgloss.Color("42"))
		t.Bad = t.Bad.Foreground(lipgloss.Color("203"))
		t.Banner = t.Banner.Foreground(lipgloss.Color("0")).Background(lipgloss.Color("214"))
		t.Bar = t.Bar.Foreground(lipgloss.Color("208"))
	}
	for _, c := range seatColours[t.Name] {
		t.seats = append(t.seats, s().Foreground(lipgloss.Color(c)))
	}
	return t
}

// seatColours are each theme's seat colours, in seat order; the mono
// theme has none (the seats' glyphs tell them apart).
var seatColours = map[string][]string{
	"default": {"81", "213", "220", "114", "209", "141", "45", "229"},
	// Okabe–Ito again, in an order that keeps neighbours apart.
	"colorblind": {"#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#0072B2", "#D55E00", "#FFFFFF"},
}
