package session_test

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/session"
)

// A notice shows across the top of whatever screen is up, at any size,
// stays for a key typed at once, and goes with a key typed later or an
// empty notice.
func TestNoticeOnEveryScreen(t *testing.T) {
	now := fixedNow()
	m := session.New(session.Config{Lobby: newTestLobby(), Games: screens, Player: alice, Theme: "mono", Width: 80, Height: 24,
		Now: func() time.Time { return now }})
	top := func() string { return strings.SplitN(m.View(), "\n", 2)[0] }
	send := func(msg tea.Msg) { m, _ = m.Update(msg) }
	lobbyTop := top()

	send(session.Notice{Text: "the server restarts at 18:00\x1b[2J\nfor an upgrade"})
	if got := top(); !strings.Contains(got, "the server restarts at 18:00 [2J for an upgrade") || len([]rune(got)) != 80 {
		t.Errorf("notice line %q", got)
	}
	send(tea.KeyMsg{Type: tea.KeyDown})
	if !strings.Contains(top(), "restarts") {
		t.Error("a key typed as the notice arrived took it down")
	}
	send(tea.WindowSizeMsg{Width: 40, Height: 10}) // too small for the board
	if !strings.Contains(top(), "the server restarts") {
		t.Errorf("too-small screen without the notice: %q", m.View())
	}
	send(tea.WindowSizeMsg{Width: 80, Height: 24})
	now = now.Add(session.NoticeHold)
	send(tea.KeyMsg{Type: tea.KeyUp})
	if got := top(); got != lobbyTop {
		t.Errorf("after a later key the top line is %q, want the lobby's %q", got, lobbyTop)
	}
	send(session.Notice{Text: "closing in a minute"})
	send(session.Notice{})
	if got := top(); got != lobbyTop {
		t.Errorf("after an empty notice the top line is %q", got)
	}
}
