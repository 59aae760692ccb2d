package session

import (
	"bytes"
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/session/kit"
)

// offersUndo reports whether the menu holds the undo move: the seat may
// take a move back now.
func (m menu) offersUndo() bool { return m.undo }

// holdsUndo reports whether groups hold the undo move; a menu asks once,
// when it is made, not at every frame (each ask decodes every move).
func holdsUndo(groups []kit.MoveGroup) bool {
	for _, g := range groups {
		for _, mv := range g.Moves {
			// Decoding every move costs a menu a tenth of its making; the
			// undo move's JSON (json.Marshal's, which escapes no letter)
			// holds its kind as written, so only moves that do are decoded.
			if bytes.Contains(mv.Move, []byte(engine.Undo)) && engine.IsUndo(mv.Move) {
				return true
			}
		}
	}
	return false
}

// undo sends the undo move (u), worded on the status line as the menu
// words it. It goes to the room even when the menu
// does not offer it: the engine, the one judge of what may be played,
// then says why nothing can be taken back ("you drew a blueprint, and a
// draw cannot be taken back").
func (g *gameScreen) undo() tea.Cmd {
	if g.inFlight() {
		g.hold(heldKey{undo: true})
		return nil
	}
	label := g.env.theme.L.T("session.game.undoLabel")
	g.sent(label)
	c, ctx, round, version := g.conn, g.env.ctx, g.room.Round, g.version
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, moveTimeout)
		defer cancel()
		return moveDoneMsg{conn: c, label: label, round: round, version: version, err: c.Move(ctx, engine.UndoMove())}
	}
}
