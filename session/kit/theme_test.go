package kit_test

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/session/kit"
)

func rendererFor(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true)
	return r
}

// Sessions on terminals alike share one copy of a theme's styles, and
// each colour profile still gets its own colours.
func TestThemesShared(t *testing.T) {
	a := kit.NewTheme("default", rendererFor(termenv.ANSI256))
	b := kit.NewTheme("default", rendererFor(termenv.ANSI256))
	if a.Styles != b.Styles {
		t.Error("two sessions on 256-colour terminals hold two copies of the default theme")
	}
	if c := kit.NewTheme("colorblind", rendererFor(termenv.ANSI256)); c.Styles == a.Styles || c.Name != "colorblind" {
		t.Errorf("the colour-blind theme is %q, the same as default: %v", c.Name, c.Styles == a.Styles)
	}
	if u := kit.NewTheme("no such theme", nil); u.Name != "default" {
		t.Errorf("an unknown theme is %q, want default", u.Name)
	}
	for _, tt := range []struct {
		theme   string
		profile termenv.Profile
		want    string // in the title's rendering
	}{
		{"default", termenv.ANSI256, "\x1b[1;38;5;208m"},
		{"colorblind", termenv.ANSI256, "\x1b[1;38;5;"},
		{"default", termenv.ANSI, "\x1b[1;"},
		{"colorblind", termenv.TrueColor, "\x1b[1;38;2;86;179;233m"},
		{"default", termenv.Ascii, "title"},
		{"mono", termenv.TrueColor, "title"},
	} {
		got := kit.NewTheme(tt.theme, rendererFor(tt.profile)).Title.Render("title")
		plain := !strings.Contains(got, "\x1b")
		if !strings.Contains(got, tt.want) || plain != (tt.want == "title") {
			t.Errorf("%s on profile %d: title %q, want %q", tt.theme, tt.profile, got, tt.want)
		}
	}
	// Sessions start at once: the first of each theme is built once.
	var wg sync.WaitGroup
	got := make([]kit.Theme, 8)
	for i := range got {
		wg.Go(func() { got[i] = kit.NewTheme("colorblind", rendererFor(termenv.ANSI)) })
	}
	wg.Wait()
	for _, th := range got[1:] {
		if th.Styles != got[0].Styles {
			t.Fatal("sessions starting together built the colour-blind theme twice")
		}
	}
}
