package session_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/session"
)

// BenchmarkFreshFrames is a table's four screens (120x40, default theme)
// after each of a run of room updates: each screen applies the update
// and draws its frame, the fresh frame every seat is sent for a move.
// An op is one update for the whole table.
//
//	go test ./session -run '^$' -bench FreshFrames -benchmem -count 5
func BenchmarkFreshFrames(b *testing.B) {
	conns, ups := gameTable(b, "factories", 40, first)
	models := make([]tea.Model, len(conns))
	for i, c := range conns {
		m := session.New(session.Config{Lobby: newTestLobby(), Games: screens, Player: alice, Theme: "default",
			Width: 120, Height: 40, Now: fixedNow})
		session.Seat(m, c.Code(), c)
		models[i] = m
	}
	n := len(ups[0])
	if testing.Verbose() {
		models[1].Update(session.Updated(conns[1], ups[1][n/2]))
		b.Log(models[1].View())
	}
	b.ReportAllocs()
	var frame []byte // as the server draws them: into a buffer it reuses
	for i := 0; b.Loop(); i++ {
		for s, m := range models {
			m.Update(session.Updated(conns[s], ups[s][i%n]))
			frame = m.(*session.Model).AppendView(frame[:0])
		}
	}
}
