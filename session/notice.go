package session

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/session/kit"
)

// Notice is a message from the server shown across the top of every
// screen of a session: an operator's announcement, a warning that the
// session is about to close. A Notice with no Text takes the last one
// down; so does a key pressed once it has been up for a few seconds.
type Notice struct {
	Text string
}

var _ tea.Msg = Notice{}

// noticeHold is how long a notice stays up before a key may take it down,
// so one typed just as it arrives does not hide it unread.
const noticeHold = 5 * time.Second

// notice is the one the session shows, if any.
type notice struct {
	text  string
	since time.Time
}

// set puts msg up, cleaned as every text from outside the code is before
// it reaches a terminal (an operator's announcement is typed by a person).
func (n *notice) set(msg Notice, now time.Time) { n.text, n.since = chat.CleanText(msg.Text), now }

// keyPressed takes the notice down once it has been up long enough.
func (n *notice) keyPressed(now time.Time) {
	if n.text != "" && now.Sub(n.since) >= noticeHold {
		n.text = ""
	}
}

// over draws the notice on the top line of screen, w columns wide.
func (n *notice) over(screen string, w int, t kit.Theme) string {
	if n.text == "" || w <= 0 {
		return screen
	}
	_, rest, _ := strings.Cut(screen, "\n")
	banner := kit.FitLines([]string{t.Banner.Render(" " + n.text + " ")}, w)
	if rest == "" {
		return banner
	}
	return banner + "\n" + rest
}

// aboveSmall draws the notice on a terminal too small for the game, w
// columns by h lines, above the screen draw makes of the lines left:
// wrapped over as many lines as it takes, so it is read whole however
// narrow the terminal (a warning that the session is about to close must
// be). With no room at all it comes first, whole, for the terminal to cut.
func (n *notice) aboveSmall(w, h int, t kit.Theme, draw func(w, h int) string) string {
	if n.text == "" {
		return draw(w, h)
	}
	if w <= 0 || h <= 0 {
		return n.text + "\n" + draw(w, h)
	}
	lines := atMost(strings.Split(lipgloss.NewStyle().Width(w).Render(n.text), "\n"), w, h)
	for i, l := range lines {
		lines[i] = t.Banner.Render(strings.TrimRight(l, " "))
	}
	banner := kit.FitLines(lines, w)
	if len(lines) == h {
		return banner
	}
	return banner + "\n" + draw(w, h-len(lines))
}
