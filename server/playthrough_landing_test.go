package server

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
)

// TestPlayThroughLobbyKeepsTheRoomLeft (issue 36, point 6): leaving a
// table puts the lobby's cursor on the room just left, where enter takes
// the player back, not on an empty OPEN SEATS; and a plain ssh while a
// game against a bot waits on the player's move lands at that table, as
// it does for a table of people.
func TestPlayThroughLobbyKeepsTheRoomLeft(t *testing.T) {
	srv := startServer(t)
	alice, code := soloAt(t, srv.addr, 80, 24, "7")
	alice.press("q")
	alice.sees("▸ YOUR GAMES (1)", "▸ "+code)
	alice.press("enter")
	alice.sees("MARKETPLACE", "room "+code)
	alice.leave()

	bots := newRoom(t, dialKey(t, srv.addr, "host", newKey(t)), "--players 2 --seed 7 --bots greedy")
	bob := sitDown(t, srv.addr, "bob", 80, 24, "join "+bots)
	bob.sees("MARKETPLACE", "your turn")
	bob.leave()
	bob.connect("")
	bob.sees("welcome back: your move in "+bots+" is waiting", "MARKETPLACE", "your turn")
}

// TestPlayThroughWelcomeBackGoesWithTheTurn (issue 36, point 7): the
// landing's "your move is waiting" belongs to that move: once it is
// played (here from the player's other terminal) and the turn is bob's,
// the status line no longer says it.
func TestPlayThroughWelcomeBackGoesWithTheTurn(t *testing.T) {
	srv := startServer(t)
	alice, bob, code := sitTwo(t, srv.addr, "--players 2 --seed 7")
	alice.sees("MARKETPLACE", "YOU ♠ alice", "your turn")
	bob.sees("alice's turn")
	alice.leave()
	alice.connect("")
	alice.sees("welcome back: your move in "+code+" is waiting", "your turn")

	other := startPlay(t, dialKey(t, srv.addr, "alice", alice.key), "play "+code)
	l := <-other.lines
	var v factories.View
	if err := json.Unmarshal(l.View, &v); err != nil || len(v.Legal) == 0 {
		t.Fatalf("alice's other terminal reads %s (%v)", l.raw, err)
	}
	i := slices.IndexFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Take })
	if i < 0 {
		t.Fatalf("alice may take no blueprint: %s", l.raw)
	}
	other.send(t, v.Legal[i]) // which ends her market turn
	alice.sees("bob's turn")
	alice.seesNo("welcome back", "is waiting")
}
