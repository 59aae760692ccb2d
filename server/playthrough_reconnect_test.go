package server

import "testing"

// TestPlayThroughReconnect: reconnect after leaving mid-game. Alice
// closes her terminal on her own turn; a plain ssh brings her back to the
// table, told her move is waiting. Bob closes his while it is not his
// move; a plain ssh opens the lobby with the cursor on the game under
// YOUR GAMES, not offered to him under IN PLAY, and enter seats him
// again (issue 25, point 3).
func TestPlayThroughReconnect(t *testing.T) {
	srv := startServer(t)
	alice, bob, code := sitTwo(t, srv.addr, "--players 2 --seed 7")
	alice.sees("MARKETPLACE", "YOU ♠ alice")
	bob.sees("MARKETPLACE", "alice's turn")

	alice.leave()
	bob.sees("alice away")
	alice.connect("")
	alice.sees("welcome back: your move in "+code+" is waiting", "MARKETPLACE", "YOU ♠ alice")
	bob.seesNo("alice away")

	bob.leave()
	bob.connect("")
	bob.sees("you sit in "+code+": enter takes you back to your seat", "YOUR GAMES (1)", "no other public game is being played")
	bob.press("enter")
	bob.sees("MARKETPLACE", "YOU ♥ bob", "alice's turn")
}
