package session_test

import (
	"context"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// A session started on a room opens it without reading every room for
// the lobby's lists first; the lobby reads them when the player gets
// there.
func TestStartOnRoomSkipsTheLobby(t *testing.T) {
	st := &countingStore{Store: mem.New()}
	l := lobby.New(lobby.Config{Store: st, Games: newTestLobby().Games()})
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 3})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	d.drain()
	if n := st.lists.Load(); n != 0 {
		t.Errorf("opening a room read the room list %d times", n)
	}
	d.keys("q")
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.until("the lobby's lists", func() bool { return st.lists.Load() > 0 })
}

// Without Config.Post (as a program the server does not run draws it),
// commands wait for the room's updates, the lobby's room changes and its
// chat, and the screens follow them the same.
func TestFollowingWithoutPost(t *testing.T) {
	l := newTestLobby()
	d := newDriverPosting(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24}, false)
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	code := createRoom(t, l, bob, lobby.CreateOptions{Seats: 2, Public: true})
	d.until("bob's new room", d.screenContains(code))
	if err := l.SayInLobby(context.Background(), bob, "anyone?"); err != nil {
		t.Fatal(err)
	}
	d.until("bob's line counted", d.screenContains("1 new in the chat (t)"))

	g := newDriverPosting(t, session.Config{Lobby: l, Player: carol, Start: session.Start{Mode: "join", Code: code}}, false)
	g.until("the waiting room", g.screenContains("1 of 2 seats taken"))
	c, err := l.Join(context.Background(), code, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g.inGame()
}
