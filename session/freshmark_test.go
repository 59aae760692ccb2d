package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// tableUpdates plays moves moves of a 4-seat game of Fantastic
// Factories (seed 5) through the lobby, each acting seat playing its
// first legal move, and returns the four seats' connections and the
// update each seat got after each move, as the room sends them.
func tableUpdates(tb testing.TB, moves int) ([]*lobby.Conn, [][]lobby.Update) {
	tb.Helper()
	ctx := context.Background()
	l := newTestLobby()
	room, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 4, HasSeed: true, Seed: 5})
	if err != nil {
		tb.Fatal(err)
	}
	var conns []*lobby.Conn
	for _, p := range []lobby.Player{alice, bob, carol, {ID: "SHA256:dave", Name: "dave"}} {
		c, err := l.Join(ctx, room.Invite(), p)
		if err != nil {
			tb.Fatal(err)
		}
		conns = append(conns, c)
	}
	latest := func(c *lobby.Conn, version int) lobby.Update {
		for {
			select {
			case u := <-c.Updates():
				if u.Value != nil && u.Version >= version {
					return u
				}
			case <-time.After(5 * time.Second):
				tb.Fatalf("seat %d: no update of version %d", c.Seat(), version)
			}
		}
	}
	for _, c := range conns {
		c.SkipJSON()
	}
	ups := make([][]lobby.Update, len(conns))
	for version := 0; version <= moves; version++ {
		var acting []int
		for i, c := range conns {
			u := latest(c, version)
			ups[i] = append(ups[i], u)
			acting = u.Room.Acting
		}
		if len(acting) == 0 {
			break
		}
		c := slices.IndexFunc(conns, func(c *lobby.Conn) bool { return c.Seat() == acting[0] })
		mv, _ := json.Marshal(ups[c][len(ups[c])-1].Value.(*factories.View).Legal[0])
		if err := conns[c].Move(ctx, mv); err != nil {
			tb.Fatal(err)
		}
	}
	return conns, ups
}

// BenchmarkFreshFrames is a table's four screens (120x40, default theme)
// after each of a run of room updates: each screen applies the update
// and draws its frame, the fresh frame every seat is sent for a move.
// An op is one update for the whole table.
//
//	go test ./session -run '^$' -bench FreshFrames -benchmem -count 5
func BenchmarkFreshFrames(b *testing.B) {
	conns, ups := tableUpdates(b, 40)
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
