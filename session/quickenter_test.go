package session_test

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestQuickEntersJoinOnce: quick enters on an open seat open the room's
// screen again before the first screen's join has answered. Each join
// answer belongs to the screen that asked: the one left behind closes
// its connection, and the player sits at a table that starts, never
// stuck on "joining room…" holding a connection the lobby has replaced.
func TestQuickEntersJoinOnce(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 5})
	a := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}})
	a.until("alice seated", a.screenContains("WAITING ROOM"))
	b := newDriver(t, session.Config{Lobby: l, Player: bob, Width: 80, Height: 24})
	b.until("the room listed", b.screenContains(code))
	// What three quick enters make, in the order that loses the seat: the
	// room's screen opened twice, the first screen's join answered first,
	// then the second's, whose answer reaches the session first.
	_, openA := b.m.Update(session.ToRoom(code))
	_, openB := b.m.Update(session.ToRoom(code))
	joinedA := openA()
	joinedB := openB()
	b.send(joinedB)
	b.send(joinedA)
	b.inGame()
	a.inGame()
	if v := b.view(); strings.Contains(v, "joining room") {
		t.Fatalf("the table is shown as still joining:\n%s", v)
	}
}
