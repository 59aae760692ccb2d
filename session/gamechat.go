package session

import (
	"context"
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/session/kit"
)

// The game screen's chat: t opens it where the game log is drawn (g still
// opens the whole log) and types in it, with the input on the status line;
// esc stops typing, and a second esc hides it. Players read the
// spectators' channel too, and may hide it; spectators read both.

// chatKey handles a key while the player types in the room's chat.
func (g *gameScreen) chatKey(msg tea.KeyMsg) tea.Cmd {
	return g.chat.key(msg, !g.spectator(), g.say)
}

// say sends text to the room's chat.
func (g *gameScreen) say(text string) tea.Cmd {
	c, ctx, pane := g.conn, g.env.ctx, g.chat
	if c == nil {
		err := errors.New(g.env.theme.L.T("session.chat.notInRoom"))
		return func() tea.Msg { return chatSentMsg{pane: pane, text: text, err: err} }
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, moveTimeout)
		defer cancel()
		return chatSentMsg{pane: pane, text: text, err: c.Say(ctx, text)}
	}
}

// logOrChat draws, in the log's place, the chat while it is open and the
// newest of the game log otherwise: worded and wrapped from the newest
// entry back until the pane is full, each entry once (logWords). Its
// lines are fitted to w (kit.Frame.Log): a board's Grid copies the log
// it keeps unmeasured at every key.
func (g *gameScreen) logOrChat(w, h int) string {
	if g.chat.open {
		return kit.FitLines(strings.Split(g.chat.view(g.env.theme, g.seats(), true, w, h), "\n"), w)
	}
	return g.logPane.Get([2]int{w, h}, func() string {
		t, s, events := g.env.theme, g.seats(), g.events
		entry := func(i int) (string, bool) { return g.words.fitted(t, s, g.room.Game, events[i], w) }
		return fittedLogTail(t, len(events), entry, w, h)
	})
}

// logLines is the room's log worded for the viewer, in their language.
func (g *gameScreen) logLines() []string {
	return g.words.words(g.env.theme, g.seats(), g.room.Game, g.events)
}

// chatKeys are the help bar's keys while typing.
func (g *gameScreen) chatKeys() help.KeyMap {
	if g.spectator() {
		return lobbyChatKeys{chatKeyMap} // a spectator has no channel to hide
	}
	return chatKeyMap
}

// unreadText is "3 new in the chat (t)" while the chat is closed and
// others have spoken since it was last open.
func (g *gameScreen) unreadText() string {
	if g.chat.open {
		return ""
	}
	me := g.env.player.Name
	if g.seat >= 0 && g.seat < len(g.room.Seats) {
		me = g.room.Seats[g.seat].Name
	}
	n := g.chat.unread(me)
	if n == 0 {
		return ""
	}
	return g.env.theme.L.N("session.chat.unread", n)
}
