package session_test

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/session"
)

// BenchmarkKeyFrames is a seat's screen (120x40, default theme) in a game
// in play, drawing the frame of each key smokeload's players press
// between moves: ? opens the key help and closes it, then the move menu
// is moved (tab, l, h, j, k). An op is those seven keys and frames.
//
//	go test ./session -run '^$' -bench KeyFrames -benchmem -count 5
func BenchmarkKeyFrames(b *testing.B) {
	conns, ups := gameTable(b, "factories", 10, first)
	m := session.New(session.Config{Lobby: newTestLobby(), Games: screens, Player: alice, Theme: "default",
		Width: 120, Height: 40, Now: fixedNow})
	session.Seat(m, conns[0].Code(), conns[0])
	m.Update(session.Updated(conns[0], ups[0][len(ups[0])-1]))
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	keys := []tea.KeyMsg{runes("?"), runes("?"), {Type: tea.KeyTab}, runes("l"), runes("h"), runes("j"), runes("k")}
	frame := m.(*session.Model).AppendView(nil) // as the server draws them: into a buffer it reuses
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			m.Update(k)
			frame = m.(*session.Model).AppendView(frame[:0])
		}
	}
}
