package server

import (
	"regexp"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/screentest"
)

// TestPlayThroughHint: h in a quick solo game at 80x24 shows the search
// bot's three best moves for the player's seat, worded as the move menu
// words them, with what each is worth; any key closes it, and from then
// on the game says a hint was asked: in its header, in the player's
// history while it is played and after it ends, and in its replay.
func TestPlayThroughHint(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS")
	alice.press("s")
	alice.sees("MARKETPLACE", "MOVES 1/")
	alice.seesNo("hints asked")
	alice.press("h")
	alice.sees("HINT", "1. ", "2. ", "3. ", "worth ", "The search bot's best moves for you")
	alice.seesNo("{\"kind\"") // every hinted move is worded, none shown as JSON
	alice.press("x")
	alice.sees("MARKETPLACE", "hints asked")
	alice.seesNo("HINT")
	alice.leave()

	// Her history marks the game, while it is played and once it ends.
	ac := dialKey(t, srv.addr, "alice", alice.key)
	hinted := regexp.MustCompile(`(?m)^(\S+)\s+factories\s.*\(hints asked\)$`)
	m := hinted.FindStringSubmatch(run(t, ac, "history", "").stdout)
	if m == nil {
		t.Fatalf("history does not mark the solo game as hinted:\n%s", run(t, ac, "history", "").stdout)
	}
	code := m[1]
	fp := gossh.FingerprintSHA256(alice.key.PublicKey())
	screentest.PlayFactories(t, srv.lobby, code, lobby.Player{ID: fp, Key: fp, Name: "alice"})
	after := run(t, ac, "history", "").stdout
	if m := hinted.FindStringSubmatch(after); m == nil || m[1] != code || !strings.Contains(after, "over") {
		t.Errorf("history does not mark the finished game %s as hinted:\n%s", code, after)
	}

	// So does its replay, from its first move.
	alice.connect("replay " + code)
	alice.sees("replay "+code, "hints asked", "move 0 of")
}
