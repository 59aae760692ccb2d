package server

import "testing"

// TestPlayThroughHint: h in a quick solo game at 80x24 shows the search
// bot's three best moves for the player's seat, worded as the move menu
// words them, with what each is worth; any key closes it, and from then
// on the game says a hint was asked, in its header as in its history.
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
}
