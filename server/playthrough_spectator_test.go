package server

import (
	"regexp"
	"testing"
)

// TestPlayThroughSpectatorOfAnEmptyRoom: alice and bob start a game and
// both leave; dan, watching the empty table, reads who is away and for
// how long, never a vote he cannot cast, and b tells him why.
func TestPlayThroughSpectatorOfAnEmptyRoom(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS", "n new room")
	alice.press("n")
	alice.sees("NEW ROOM")
	alice.press("enter")
	alice.sees("WAITING ROOM")
	code := regexp.MustCompile(`room ([0-9A-Z]{6})`).FindStringSubmatch(alice.screen())
	if code == nil {
		t.Fatalf("no room code on alice's screen:\n%s", alice.screen())
	}
	bob := sitDown(t, srv.addr, "bob", 80, 24, "join "+code[1])
	bob.sees("MARKETPLACE", "YOU ♥ bob")
	alice.sees("MARKETPLACE")
	alice.leave()
	bob.leave()

	dan := sitDown(t, srv.addr, "dan", 80, 24, "watch "+code[1])
	dan.sees("watching", "waiting for alice (disconnected", "waiting for bob (disconnected")
	dan.seesNo("b for a bot", "0/0", "votes", "0:00")
	dan.press("b")
	dan.sees("✗ spectators have no vote")
}
