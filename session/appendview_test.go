package session_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/session"
)

// TestAppendViewIsView: the server draws frames from AppendView, which
// writes a game screen's frame in place after what the buffer holds; it
// must append exactly View on every screen, at every size, under a
// notice and centred too. (That a board's grid is written as its Draw
// would be is kit's TestRowsWriteAGridAsItsString.)
func TestAppendViewIsView(t *testing.T) {
	l := newTestLobby()
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	m := d.m.(*session.Model)
	check := func(what string) {
		t.Helper()
		const prefix = "kept\n"
		got := string(m.AppendView([]byte(prefix)))
		if want := prefix + m.View(); got != want {
			t.Fatalf("%s: AppendView appended\n%s\nView is\n%s", what, got[len(prefix):], want[len(prefix):])
		}
	}
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	check("the lobby")
	d.keys("s")
	d.inGame()
	check("the game at 80x24")
	for _, size := range [][2]int{{120, 40}, {100, 30}, {160, 50}, {200, 60}, {40, 10}} {
		d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		check("the game after a resize")
		for _, k := range []string{"down", "down", "?", "esc", "up"} {
			d.keys(k)
			check("the game after " + k)
		}
	}
	d.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	d.send(session.Notice{Text: "the server restarts in 5 minutes"})
	check("the game under a notice")
}
