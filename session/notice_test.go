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

	send(session.Notice{Text: "the server restarts at 18:00\x1b[2J\u009b2J\u202e\nfor an upgrade"})
	if got := top(); !strings.Contains(got, "the server restarts at 18:00 for an upgrade") || len([]rune(got)) != 80 {
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
	// Narrower than the notice: it wraps, and is there whole; the screen
	// keeps its size, and the request for a bigger window shows below.
	send(session.Notice{Text: "no input for a while: this session closes in 58s unless you press a key"})
	for _, size := range [][2]int{{30, 10}, {12, 12}, {0, 0}} {
		send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		v := m.View()
		words := strings.Join(strings.Fields(v), " ")
		if !strings.Contains(words, "no input for a while: this session closes in 58s unless you press a key") ||
			!strings.Contains(words, "80x24") || size[0] == 30 && !strings.Contains(words, "(it is 30x10)") {
			t.Errorf("at %dx%d the warning or the size request is not whole:\n%s", size[0], size[1], v)
		}
		lines := strings.Split(v, "\n")
		if size[0] > 0 && (len(lines) != size[1] || len([]rune(lines[0])) != size[0]) {
			t.Errorf("at %dx%d the screen is %d lines of %d", size[0], size[1], len(lines), len([]rune(lines[0])))
		}
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
