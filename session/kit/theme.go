package kit

import (
	"io"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/internal/lang"
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
//
// It also carries the language the session reads (L), since everything
// that draws takes a Theme: a board words its text with t.L.T(…). A nil
// L words English.
type Theme struct {
	*Styles
	L *lang.Printer
}

// In returns the theme speaking language p.
func (t Theme) In(p *lang.Printer) Theme {
	t.L = p
	return t
}

// Styles are a theme's styles. Treat them as read-only: sessions share
// them.
type Styles struct {
	// Name is "default", "colorblind" or "mono": games pick their own
	// colours by it.
	Name     string
	Title    Style // screen titles and section heads
	Dim      Style // secondary text
	Accent   Style // the player's own things, whose turn it is
	Selected Style // the focused row (after the ▸ marker)
	Good     Style // winners, success
	Bad      Style // errors, warnings, away seats
	Banner   Style // notices across the top
	Bar      Style // score bars
	seats    []Style
	plain    Style
	renderer *lipgloss.Renderer
}

// SeatStyle is the seat's colour, for its glyph and name.
func (t Theme) SeatStyle(seat int) Style {
	if seat < 0 || len(t.seats) == 0 {
		return t.plain
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
	title, dim, accent, selected := s().Bold(true), s().Faint(true), s().Bold(true), s().Reverse(true)
	good, bad, banner, bar := s().Bold(true), s().Bold(true), s().Bold(true), s()
	switch key.name {
	case "colorblind":
		// Okabe–Ito: distinguishable with every common colour-vision
		// deficiency.
		title = title.Foreground(lipgloss.Color("#56B4E9"))
		accent = accent.Foreground(lipgloss.Color("#009E73"))
		good = good.Foreground(lipgloss.Color("#009E73"))
		bad = bad.Foreground(lipgloss.Color("#D55E00"))
		banner = banner.Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#E69F00"))
		bar = bar.Foreground(lipgloss.Color("#0072B2"))
	case "mono":
		dim, selected, bad, good, accent = s(), s(), s(), s(), s()
	default:
		title = title.Foreground(lipgloss.Color("208"))
		accent = accent.Foreground(lipgloss.Color("42"))
		good = good.Foreground(lipgloss.Color("42"))
		bad = bad.Foreground(lipgloss.Color("203"))
		banner = banner.Foreground(lipgloss.Color("0")).Background(lipgloss.Color("214"))
		bar = bar.Foreground(lipgloss.Color("208"))
	}
	t := Theme{Styles: &Styles{Name: key.name, Title: paint(title), Dim: paint(dim), Accent: paint(accent),
		Selected: paint(selected), Good: paint(good), Bad: paint(bad), Banner: paint(banner), Bar: paint(bar),
		plain: paint(s()), renderer: r}}
	for _, c := range seatColours[t.Name] {
		t.seats = append(t.seats, paint(s().Foreground(lipgloss.Color(c))))
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
