package session

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// Hints: h asks the room for the best moves of the player's own seat as
// the game's search bot rates them (lobby.Conn.Hint), and shows them in an
// overlay, each worded as the move menu words it. The room refuses a
// rated game; its refusal is shown as any other.

// hintMsg is the room's answer to h.
type hintMsg struct {
	conn    *lobby.Conn
	version int
	hints   []engine.Hint
	err     error
}

// hint asks the room for a hint, one question at a time.
func (g *gameScreen) hint() tea.Cmd {
	if g.hintAsked != 0 {
		return nil
	}
	g.setStatus(g.env.theme.L.T("session.hint.thinking"), false)
	g.hintAsked = g.said
	c, ctx, version := g.conn, g.env.ctx, g.version
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, moveTimeout)
		defer cancel()
		hints, err := c.Hint(ctx)
		return hintMsg{conn: c, version: version, hints: hints, err: err}
	}
}

// hinted shows the room's answer to h while it is still the newest thing
// the player asked: once anything was said since the question (a move
// armed, played or refused, esc), the answer is to a question the player
// has moved on from, and saying it would hide what they were told last.
// A hint for a position that is gone is dropped too.
func (g *gameScreen) hinted(msg hintMsg) {
	if msg.conn != g.conn {
		return
	}
	current := g.hintAsked == g.said
	g.hintAsked = 0
	switch {
	case !current:
	case msg.err != nil:
		g.setStatus(errText(g.env.theme, g.room.Game, msg.err), true)
	case msg.version != g.version:
		g.setStatus("", false) // the question's "thinking" goes with it
	default:
		g.setStatus("", false)
		g.overlay = &hintOverlay{lines: g.hintLines(msg.hints)}
	}
}

// hintLines words each hinted move as the menu does: its group's title
// and its label, found by the move's JSON among the menu's moves.
func (g *gameScreen) hintLines(hints []engine.Hint) []hintLine {
	var groups []kit.MoveGroup
	if g.board != nil {
		groups = g.board.Menu(g.seats())
	}
	lines := make([]hintLine, len(hints))
	for i, h := range hints {
		lines[i] = hintLine{label: string(h.Move), worth: h.Worth}
	find:
		for _, grp := range groups {
			for _, mv := range grp.Moves {
				if bytes.Equal(mv.Move, h.Move) {
					lines[i].label = strings.TrimSpace(grp.Title + ": " + mv.Label)
					break find
				}
			}
		}
	}
	return lines
}

// hintLine is one hinted move, worded.
type hintLine struct {
	label string
	worth float64
}

// hintOverlay lists the hinted moves, best first; any key closes it.
type hintOverlay struct{ lines []hintLine }

func (o *hintOverlay) update(tea.KeyMsg) (overlay, tea.Cmd) { return nil, nil }
func (o *hintOverlay) resize(int, int)                      {}
func (o *hintOverlay) keys() help.KeyMap                    { return anyKey{} }

func (o *hintOverlay) view(t kit.Theme, w, _ int) string {
	p := t.L
	var b strings.Builder
	b.WriteString(t.Title.Render(p.T("session.hint.title")) + "\n\n")
	for i, l := range o.lines {
		worth := p.T("session.hint.worth", "Worth", p.Signed(l.worth, 1))
		b.WriteString(strings.Join(hintRow(i+1, l.label, worth, w), "\n") + "\n")
	}
	b.WriteString("\n" + t.Dim.Render(lipgloss.NewStyle().Width(w).Render(p.T("session.hint.about"))))
	return b.String()
}

// hintRow lays a hinted move out in lines of w cells: its number, its
// label wrapped at its words, then what it is worth, which is one piece
// the wrapping never splits (a worth on a line of its own, its number on
// the next, reads as nothing). Lines after the first hang under the label.
func hintRow(n int, label, worth string, w int) []string {
	items := append(strings.Fields(label), "· "+worth)
	prefix := fmt.Sprintf("%d. ", n)
	return kit.WrapHanging(prefix, strings.Repeat(" ", kit.Width(prefix)), items, " ", w)
}
