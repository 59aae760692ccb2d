package kit

import (
	"io"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Theme is every style the screens use. Views take their styles from one
// Theme value, so the mono and colour-blind themes are a swap of this value
// and nothing else. Information never rests on colour alone: selections
// carry a marker, done seats say "done", and a game's own colours (tools,
// seats) come with a word or a shape.
//
// A Theme is a pointer to its Styles, which are built once per theme and
// colour profile and shared by every session that draws with them: a
// thousand sessions hold one copy, not a thousand.
type Theme struct{ *Styles }

// Styles are a theme's styles. Treat them as read-only: sessions share
// them.
type Styles struct {
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

// ThemeNames are the themes NewTheme knows, as a session's theme option
// offers them.
var ThemeNames = []string{"default", "colorblind", "mono"}

// themeKey is what a theme's styles depend on: its name and how the
// terminal shows colour.
type themeKey struct {
	name    string
	profile termenv.Profile
	dark    bool
}

// themes are the themes built so far: a few names times four colour
// profiles at most.
var themes sync.Map // themeKey -> Theme

// NewTheme returns the theme called name (default when unknown) for the
// colour profile and background of r. A nil r renders colour as
// 256-colour ANSI, or plain text for mono. Only r's profile and
// background are used: the theme is shared with every session asking for
// the same name on a terminal alike, and renders with a renderer of its
// own.
func NewTheme(name string, r *lipgloss.Renderer) Theme {
	if name != "colorblind" && name != "mono" {
		name = "default"
	}
	key := themeKey{name: name, profile: termenv.ANSI256, dark: true}
	if r != nil {
		key.profile, key.dark = r.ColorProfile(), r.HasDarkBackground()
	}
	if name == "mono" {
		// Mono is plain text whatever the terminal says, so goldens and
		// screen readers see the same bytes.
		key.profile, key.dark = termenv.Ascii, true
	}
	if t, ok := themes.Load(key); ok {
		return t.(Theme)
	}
	t, _ := themes.LoadOrStore(key, newTheme(key))
	return t.(Theme)
}

func newTheme(key themeKey) Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(key.profile)
	r.SetHasDarkBackground(key.dark)
	s := r.NewStyle
	t := Theme{&Styles{Name: key.name, Title: s().Bold(true), Dim: s().Faint(true), Accent: s().Bold(true),
		Selected: s().Reverse(true), Good: s().Bold(true), Bad: s().Bold(true),
		Banner: s().Bold(true), Bar: s(), renderer: r}}
	switch key.name {
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
