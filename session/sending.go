package session

import (
	"bytes"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/session/kit"
)

// Keys typed while a move is on its way (input.go). The menu stays on
// screen while a move is sent, and keeps its place when the view comes
// back (menu.restore), so ↑/↓ and the group keys act on it at once. A
// key that plays (enter, u) cannot: it waits, holding the move the player
// saw selected when they pressed it, and is played once the room's view
// that answers the move in flight has come, if that view still offers the
// move in the same words (kit.Reoffered); else it is dropped, and the
// status line says so. A waiting enter never plays or confirms a move the
// player has not seen.

// inFlight reports whether a key that plays must wait: a move is on its
// way, or it was taken and the view that answers it has not come. A key
// pressed between the room's answer and its view would play on the table
// the move left behind ("take" sent into the work phase).
func (g *gameScreen) inFlight() bool { return g.pending || g.unseen }

// maxHeld is how many playing keys may wait for a move in flight: a few
// quick enters, not a script's worth.
const maxHeld = 4

// heldKey is enter or u, pressed while a move was on its way.
type heldKey struct {
	mv    kit.MenuMove // enter: the move the menu showed selected
	group string       // the title of mv's group
	undo  bool         // u
}

// hold keeps k until the move in flight is answered, and says so on the
// status line.
func (g *gameScreen) hold(k heldKey) {
	p := g.env.theme.L
	if len(g.held) >= maxHeld {
		g.setStatus(p.N("session.game.tooManyWaiting", maxHeld), true)
		return
	}
	g.held = append(g.held, k)
	g.setStatusUntil(p.N("session.game.keysWait", len(g.held), "Move", g.sending), false,
		func(g *gameScreen) bool { return !g.inFlight() })
}

// sent marks label as the move on its way, from the room's version now.
func (g *gameScreen) sent(label string) {
	g.pending, g.sending, g.sentVersion = true, label, g.version
	g.setStatusUntil(g.env.theme.L.T("session.game.sending", "Move", label), false, func(g *gameScreen) bool { return !g.pending })
}

// release plays the keys that waited, in order, once the move in flight
// is answered and its view has come: each held enter plays the move it
// was pressed on if the view still offers it, and is dropped, said on the
// status line, if not. It stops at the first that sends a move: the rest
// wait for that one.
func (g *gameScreen) release() tea.Cmd {
	for !g.inFlight() && len(g.held) > 0 && g.version > g.sentVersion {
		k := g.held[0]
		g.held = g.held[1:]
		if k.undo {
			return g.undo()
		}
		if !g.selectMove(k.group, k.mv) {
			g.setStatus(g.env.theme.L.T("session.game.keyDropped", "Move", k.mv.Label), true)
			continue
		}
		if cmd := g.play(); cmd != nil {
			return cmd
		}
	}
	return nil
}

// dropHeld drops the keys that waited for a move the room refused: they
// were chosen for a table that did not come. It says how many went.
func (g *gameScreen) dropHeld() string {
	n := len(g.held)
	g.held = nil
	if n == 0 {
		return ""
	}
	return g.env.theme.L.N("session.game.heldDropped", n)
}

// selectMove puts the menu on mv as the player saw it under the group
// title group (see kit.Reoffered), with every move shown, and reports
// whether the menu offers it. A costly move waiting for its second enter
// is cancelled if it is another.
func (g *gameScreen) selectMove(group string, mv kit.MenuMove) bool {
	type place struct{ group, item int }
	var places []place
	for i, grp := range g.menu.groups {
		for j := range grp.Moves {
			places = append(places, place{i, j})
		}
	}
	words := func(title string, mv kit.MenuMove) string { return title + "\x00" + mv.Label }
	k := kit.Reoffered(len(places), func(k int) (string, []byte) {
		grp := g.menu.groups[places[k].group]
		x := grp.Moves[places[k].item]
		return words(grp.Title, x), x.Move
	}, words(group, mv), mv.Move)
	if k < 0 {
		return false
	}
	at := places[k]
	if x := g.menu.groups[at.group].Moves[at.item]; g.armed != nil && !bytes.Equal(g.armed, x.Move) {
		g.armed = nil
	}
	g.filtering = false
	g.menu.filter, g.menu.group, g.menu.item = "", at.group, at.item
	return true
}
