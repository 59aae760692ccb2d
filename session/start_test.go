package session_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// listCounter is a room store that counts how often every room is read.
type listCounter struct {
	lobby.Store
	lists atomic.Int64
}

func (s *listCounter) List(ctx context.Context) ([]lobby.Meta, error) {
	s.lists.Add(1)
	return s.Store.List(ctx)
}

// A session started on a room opens it without reading every room for
// the lobby's lists first; the lobby reads them when the player gets
// there.
func TestStartOnRoomSkipsTheLobby(t *testing.T) {
	store := &listCounter{Store: lobby.NewMemStore()}
	l := lobby.New(lobby.Config{Store: store, Games: newTestLobby().Games()})
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 3})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	d.drain()
	if n := store.lists.Load(); n != 0 {
		t.Errorf("opening a room read the room list %d times", n)
	}
	d.keys("q")
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.until("the lobby's lists", func() bool { return store.lists.Load() > 0 })
}
