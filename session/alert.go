package session

import (
	"io"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
)

// A player who looks away is called back: when their seat comes to act
// (their market turn, the work phase everyone plays at once) the terminal
// rings its bell, and the window title says so while it lasts. B switches
// both off or on for the session; `--no-bell` starts with them off.

// alerts is the session's bell and window title. They are written to the
// terminal (Config.Terminal), not through Bubble Tea's SetWindowTitle,
// whose writes race the renderer's.
type alerts struct {
	on    bool
	term  io.Writer // Config.Terminal; nil writes nothing
	title string    // the title last set, "" before any
}

// send writes seq to the terminal, from the update loop: the server's
// terminal holds it for the frame the update draws, so a title or a bell
// goes out with its frame, in the same write.
func (a *alerts) send(seq string) {
	if a.term != nil {
		_, _ = io.WriteString(a.term, seq)
	}
}

// baseTitle is the window title outside a room.
const baseTitle = "smokestack"

// setTitle sets the window title, if alerts are on and it changed.
func (a *alerts) setTitle(title string) {
	if !a.on || title == a.title {
		return
	}
	a.title = title
	a.send(ansi.SetWindowTitle(title))
}

// toggle switches the bell and title off or on and says which, in p's
// language.
func (a *alerts) toggle(p *lang.Printer) string {
	if a.on {
		a.setTitle(baseTitle) // no stale "your move" left behind
		a.on = false
		return p.T("session.alert.off")
	}
	a.on = true
	return p.T("session.alert.on")
}

// seatAlert is what a room update means for the terminal: the bell when
// the seat has just come to act, and the title for the room as it now
// stands. wasActing is whether the seat could act before the update.
func (g *gameScreen) seatAlert(wasActing bool) {
	a := &g.env.alerts
	acting := g.acting()
	p := g.env.theme.L
	title := g.roomName(g.code) + " · " + baseTitle // worded once, as the header's
	if acting {
		title = p.T("session.alert.yourMove") + " · " + title
	}
	a.setTitle(title)
	if acting && !wasActing && a.on {
		a.send("\a")
	}
}

// acting reports whether the seat may move now.
func (g *gameScreen) acting() bool {
	return !g.spectator() && g.board != nil && !g.over() && slices.Contains(g.room.Acting, g.seat)
}
