package session

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session/kit"
)

// The lobby's chat, for finding players: t opens it under the room lists
// and types in it. The screen follows it while it shows the lobby, so
// the header can count what was said while the chat was hidden.

// lobbyChatMsg delivers the lobby's newest chat to the screen following
// it through feed.
type lobbyChatMsg struct {
	feed  *chat.Feed
	lines []store.ChatLine
}

// followedMsg hands the screen its feed of the lobby's chat.
type followedMsg struct{ feed *chat.Feed }

// chatToldMsg says the feed has new lines (with Config.Post).
type chatToldMsg struct{ feed *chat.Feed }

// followChat starts following the lobby's chat (its first read is the
// store's, so outside Update).
func (l *lobbyScreen) followChat() tea.Cmd {
	e := l.env
	return func() tea.Msg { return followedMsg{feed: e.lobby.FollowLobbyChat(e.ctx)} }
}

// waitChat delivers the lobby chat's next lines. It ends when the screen
// closes or the session ends.
func (l *lobbyScreen) waitChat() tea.Cmd {
	f, done, ctx := l.feed, l.done, l.env.ctx
	return func() tea.Msg {
		select {
		case lines := <-f.Lines():
			return lobbyChatMsg{feed: f, lines: lines}
		case <-done:
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// sayLobby sends text to the lobby's chat.
func (l *lobbyScreen) sayLobby(text string) tea.Cmd {
	e, pane := l.env, l.chat
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, moveTimeout)
		defer cancel()
		return chatSentMsg{pane: pane, text: text, err: e.lobby.SayInLobby(ctx, e.player, text)}
	}
}

// chatUpdate handles the lobby chat's messages; ok is false for others.
func (l *lobbyScreen) chatUpdate(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case followedMsg:
		select {
		case <-l.done: // the screen closed meanwhile
			msg.feed.Close()
			return nil, true
		default:
		}
		l.feed = msg.feed
		if post := l.env.post; post != nil {
			// The feed tells of new lines and the screen gets a message
			// of it: no goroutine waits on the chat between lines.
			l.chatTold = &poster{post: post, msg: chatToldMsg{feed: msg.feed}}
			msg.feed.OnLines(l.chatTold.tell)
			return nil, true
		}
		return l.waitChat(), true
	case chatToldMsg:
		if msg.feed == l.feed {
			l.chatTold.taken()
			select {
			case lines := <-msg.feed.Lines():
				l.chat.setLines(lines)
			default:
			}
		}
		return nil, true
	case lobbyChatMsg:
		if msg.feed == l.feed {
			l.chat.setLines(msg.lines)
			return l.waitChat(), true
		}
		return nil, true
	case chatSentMsg:
		if msg.pane == l.chat {
			return l.chat.sent(msg.text, msg.err), true
		}
		return nil, true
	}
	return nil, false
}

// closeChat stops following the lobby's chat, when the screen closes.
func (l *lobbyScreen) closeChat() {
	select {
	case <-l.done:
		return
	default:
	}
	close(l.done)
	if l.feed != nil {
		l.feed.Close()
	}
}

// chatUnread is "2 new in the chat (t)" while the chat is hidden.
func (l *lobbyScreen) chatUnread() string {
	if l.chat.open {
		return ""
	}
	if n := l.chat.unread(l.env.player.Name); n > 0 {
		return l.env.theme.L.N("session.chat.unread", n)
	}
	return ""
}

// withChat draws the lists above the open chat.
func (l *lobbyScreen) withChat(w, h int) string {
	ch := max(6, h/2)
	return kit.Fit(l.listsView(w, h-ch-1), w, h-ch-1) + "\n\n" + l.chat.view(l.env.theme, kit.Seats{}, false, w, ch)
}
