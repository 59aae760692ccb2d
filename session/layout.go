package session

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Minimum terminal size: below it the board cannot be drawn legibly, so
// the session asks for a bigger window instead.
const (
	MinWidth  = 80
	MinHeight = 24
	// maxWidth keeps lines readable on huge terminals; the rest is margin.
	maxWidth = 160
)

// tooSmall is the whole screen when the terminal is below the minimum,
// or, with a notice above it, the w by h left of a terminal of size.
// Its words are p's. keyed says a key was pressed meanwhile: the screen
// takes none (input.go), and says so.
func tooSmall(p *lang.Printer, w, h int, size [2]int, keyed bool) string {
	msg := p.T("session.small.ask", "Width", MinWidth, "Height", MinHeight)
	sub := p.T("session.small.is", "Width", size[0], "Height", size[1])
	if keyed {
		sub += "\n" + p.T("session.small.keys")
	}
	if w <= 0 || h <= 0 {
		return msg
	}
	block := lipgloss.JoinVertical(lipgloss.Center, msg, sub)
	if w < kit.Width(msg) {
		// Narrower than the request: wrapped, and marked where even
		// that does not fit.
		lines := strings.Split(lipgloss.NewStyle().Width(w).Align(lipgloss.Center).Render(msg+"\n"+sub), "\n")
		block = strings.Join(atMost(lines, w, h), "\n")
	}
	return kit.Fit(lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, block), w, h)
}

// center places the screen in the middle of a terminal wider than maxWidth.
func center(screen string, w, h int) string {
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Top, screen)
}

// maxStatus is the most lines a status takes from the body.
const maxStatus = 3

// statusLines fits the status line s to w: whole on one line when it
// fits, else wrapped at its spaces in up to maxStatus lines (the last
// marked "…" if even those are short), so a long refusal or a
// translation longer than English reads whole. n is its height; the
// body gives up the lines past the first.
func statusLines(s string, w int) (block string, n int) {
	if kit.Width(s) <= w {
		return s, 1
	}
	lines := atMost(strings.Split(kit.Wrap(s, w), "\n"), w, maxStatus)
	return strings.Join(lines, "\n"), len(lines)
}

// atMost is the first h of lines of width w, the last cut to fit with
// "…" when any had to go: text too long for its place shows that it goes
// on rather than stopping as if whole.
func atMost(lines []string, w, h int) []string {
	if len(lines) <= h {
		return lines
	}
	lines = lines[:h]
	lines[h-1] = ansi.Truncate(lines[h-1], w-1, "") + "…"
	return lines
}
