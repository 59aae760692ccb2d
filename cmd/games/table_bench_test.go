package games

import (
	"context"
	"fmt"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session/kit"
)

// BenchmarkTableBroadcast plays a seeded 4-seat game of each game in a
// room, a person at every seat, as the server does: each op is one move
// committed and broadcast, and every seat's screen decoding its update
// into a Board. It counts what a move costs the room and its screens
// together, beside drawing.
func BenchmarkTableBroadcast(b *testing.B) {
	for _, g := range All() {
		b.Run(g.Name(), func(b *testing.B) {
			log := randomGame(b, g, 4, 11)
			l := lobby.New(lobby.Config{Store: mem.New(), Games: Lobby([]Game{g})})
			var conns []*lobby.Conn
			next := len(log) // the move to play; at the end, a new room
			for b.Loop() {
				if next == len(log) {
					for _, c := range conns {
						c.Close()
					}
					conns, next = benchTable(b, l, g), 0
				}
				pm := log[next]
				next++
				if err := conns[pm.seat].Move(context.Background(), pm.move); err != nil {
					b.Fatal(err)
				}
				for _, c := range conns {
					if _, err := screenOf(b, g.Screen, <-c.Updates()); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// benchTable opens a room of g for 4 people seeded as randomGame's game
// and returns their connections by seat, each update read.
func benchTable(b *testing.B, l *lobby.Lobby, g Game) []*lobby.Conn {
	ctx := context.Background()
	host := lobby.Player{ID: "key:p0", Name: "p0"}
	meta, err := l.Create(ctx, host, lobby.CreateOptions{Game: g.Name(), Seats: 4, Seed: 11, HasSeed: true})
	if err != nil {
		b.Fatal(err)
	}
	conns := make([]*lobby.Conn, 4)
	for i := range conns {
		p := lobby.Player{ID: fmt.Sprintf("key:p%d", i), Name: fmt.Sprintf("p%d", i)}
		c, err := l.Join(ctx, meta.Invite(), p)
		if err != nil {
			b.Fatal(err)
		}
		c.SkipJSON() // as a screen's
		conns[c.Seat()] = c
	}
	for _, c := range conns {
		for len(c.Updates()) > 0 {
			<-c.Updates()
		}
	}
	return conns
}

// screenOf decodes u as a seat's screen does.
func screenOf(b *testing.B, s kit.Game, u lobby.Update) (kit.Board, error) {
	if u.Value == nil {
		b.Fatal("an update without the view's value")
	}
	return s.Decode(u.Value)
}
