package session

import (
	"context"
	"errors"

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
// newest of the game log otherwise.
func (g *gameScreen) logOrChat(w, h int) string {
	if g.chat.open {
		return g.chat.view(g.env.theme, g.seats(), true, w, h)
	}
	if g.logPane.text == "" || g.logPane.w != w || g.logPane.h != h {
		g.logPane = drawnLog{logTailWith(g.env.theme, g.seats(), g.logLines(), w, h, &g.logWraps), w, h}
	}
	return g.logPane.text
}

// logLines is the room's log worded for the viewer, in their language.
func (g *gameScreen) logLines() []string {
	return g.words.words(g.env.theme, g.seats(), g.room.Game, g.events)
}

// drawnLog is the log pane as last drawn, at w×h: a key that moves the
// menu redraws the board, and the log, wrapping every line, is the
// costliest part of it. Each room update clears it.
type drawnLog struct {
	text string
	w, h int
}

// logWraps keeps the log's entries as the log pane last wrapped them:
// every room update draws the log again, and all but its newest entry
// or two were on the pane before, wrapped the same way while the width,
// the theme and the seats stay the same.
type logWraps struct {
	styles *kit.Styles
	seats  kit.Seats
	w      int
	last   map[string][]string // the entries the last drawing wrapped
	next   map[string][]string // the entries this drawing wrapped
}

// start begins a drawing of the log at width w: it returns wrap, taking
// what the last drawing wrapped the same way where it can, and keeps
// only the entries this drawing wraps, for the next.
func (l *logWraps) start(t kit.Theme, s kit.Seats, w int, wrap func(string) []string) func(string) []string {
	if l.styles != t.Styles || l.w != w || !l.seats.Equal(s) {
		l.styles, l.seats, l.w, l.next = t.Styles, s, w, nil
	}
	l.last, l.next = l.next, map[string][]string{}
	return func(entry string) []string {
		lines, ok := l.last[entry]
		if !ok {
			lines = wrap(entry)
		}
		l.next[entry] = lines
		return lines
	}
}

// done ends a drawing: what the last one wrapped and this one did not
// is let go.
func (l *logWraps) done() { l.last = nil }

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
