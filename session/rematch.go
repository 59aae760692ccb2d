package session

import (
	"context"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby"
)

// At a finished game's table r offers the same seats a new game with a
// new seed, or accepts the offer; once every person has (bots at once),
// everyone still at the table moves to the new room.

// rematchMsg reports what became of a rematch asked for from the screen
// whose done channel it carries.
type rematchMsg struct {
	done chan struct{}
	info lobby.RoomInfo
	err  error
}

// rematch offers or accepts a rematch, or goes to the one already made.
func (g *gameScreen) rematch() tea.Cmd {
	if rm := g.room.Rematch; rm != nil && rm.Code != "" {
		return g.goToRematch(rm.Code)
	}
	switch {
	case g.spectator():
		g.setStatus(g.env.theme.L.T("session.rematch.playersOnly"), true)
		return nil
	case g.room.Result == nil:
		g.setStatus(g.env.theme.L.T("session.rematch.stopped"), true)
		return nil
	}
	e, typed, done := g.env, g.typed, g.done
	g.setStatus(g.env.theme.L.T("session.rematch.asking"), false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		info, err := e.lobby.Rematch(ctx, typed, e.player)
		return rematchMsg{done: done, info: info, err: err}
	}
}

func (g *gameScreen) rematchDone(msg rematchMsg) {
	switch {
	case msg.err != nil:
		g.setStatus(errText(g.env.theme, g.room.Game, msg.err), true)
	case msg.info.Rematch != nil && msg.info.Rematch.Code == "":
		g.setStatus(g.env.theme.L.T("session.rematch.in"), false)
	}
}

// followRematch moves the screen to the rematch once it is made while
// the screen shows the room. A room opened after its rematch was made
// stays, showing the game's end: r goes to the new room.
func (g *gameScreen) followRematch(first bool) tea.Cmd {
	rm := g.room.Rematch
	if g.followed || rm == nil || rm.Code == "" {
		return nil
	}
	g.followed = true
	if first {
		return nil
	}
	return g.goToRematch(rm.Code)
}

// goToRematch opens the rematch room: in the player's seat, or watching.
func (g *gameScreen) goToRematch(code string) tea.Cmd {
	if g.spectator() && !g.room.Public {
		g.setStatus(g.env.theme.L.T("session.rematch.private", "Code", code), false)
		return nil
	}
	watch := g.spectator()
	return func() tea.Msg { return toRoom{code: code, watch: watch} }
}

// rematchText is the banner at a finished game's table while a rematch
// is offered: who is in, who is awaited.
func (g *gameScreen) rematchText() string {
	rm := g.room.Rematch
	if !g.over() || rm == nil {
		return ""
	}
	t, s := g.env.theme, g.seats()
	if rm.Code != "" {
		return t.Accent.Render("↻ "+t.L.T("session.rematch.made", "Code", rm.Code)) + t.Dim.Render(": "+t.L.T("session.rematch.goThere"))
	}
	var in, out []string
	for i := range g.room.Seats {
		if slices.Contains(rm.Accepted, i) {
			in = append(in, "✓ "+s.Name(i))
		} else {
			out = append(out, s.Name(i))
		}
	}
	text := "↻ " + t.L.T("session.rematch.offer", "In", strings.Join(in, " · "), "Out", strings.Join(out, ", "))
	if g.seat >= 0 && !slices.Contains(rm.Accepted, g.seat) {
		return t.Accent.Render(text + " · " + t.L.T("session.rematch.accept"))
	}
	return t.Accent.Render(text)
}
