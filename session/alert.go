package session

import (
	"io"
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
)

// A player who looks away is called back: when their seat comes to act
// (their market turn, the work phase everyone plays at once) the terminal
// rings its bell, and the window title says so while it lasts. B switches
// both off or on for the session; `--no-bell` starts with them off.

// alerts is the session's bell and window title. They are written
// straight to the terminal (Config.Terminal), not through Bubble Tea's
// SetWindowTitle, whose writes race the renderer's.
type alerts struct {
	on    bool
	term  io.Writer // Config.Terminal; nil writes nothing
	title string    // the title last set, "" before any
}

// send writes seq to the terminal, off the update loop: a slow
// connection holds up nothing but this write.
func (a *alerts) send(seq string) tea.Cmd {
	if a.term == nil {
		return nil
	}
	w := a.term
	return func() tea.Msg {
		_, _ = io.WriteString(w, seq)
		return nil
	}
}

// baseTitle is the window title outside a room.
const baseTitle = "smokestack"

// setTitle sets the window title, if alerts are on and it changed.
func (a *alerts) setTitle(title string) tea.Cmd {
	if !a.on || title == a.title {
		return nil
	}
	a.title = title
	return a.send(ansi.SetWindowTitle(title))
}

// toggle switches the bell and title off or on and says which, in p's
// language.
func (a *alerts) toggle(p *lang.Printer) (tea.Cmd, string) {
	if a.on {
		cmd := a.setTitle(baseTitle) // no stale "your move" left behind
		a.on = false
		return cmd, p.T("session.alert.off")
	}
	a.on = true
	return nil, p.T("session.alert.on")
}

// seatAlert is what a room update means for the terminal: the bell when
// the seat has just come to act, and the title for the room as it now
// stands. wasActing is whether the seat could act before the update.
func (g *gameScreen) seatAlert(wasActing bool) tea.Cmd {
	a := &g.env.alerts
	acting := g.acting()
	p := g.env.theme.L
	title := g.roomName(g.code) + " · " + baseTitle // worded once, as the header's
	if acting {
		title = p.T("session.alert.yourMove") + " · " + title
	}
	cmd := a.setTitle(title)
	if acting && !wasActing && a.on {
		return tea.Batch(cmd, a.send("\a"))
	}
	return cmd
}

// acting reports whether the seat may move now.
func (g *gameScreen) acting() bool {
	return !g.spectator() && g.board != nil && !g.over() && slices.Contains(g.room.Acting, g.seat)
}
