package server

import "testing"

// TestPlayThroughSearch: a search that matches nothing, then esc, in a
// quick solo game at 80x24: the menu says nothing matches, enter says
// how to get the moves back (not "nothing to play"), and esc brings
// every move back, in the room; q leaves it.
func TestPlayThroughSearch(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS")
	alice.press("s")
	alice.sees("MARKETPLACE", "MOVES 1/")
	alice.press("/", "zzz")
	alice.sees("search moves: zzz", "no move matches “zzz”")
	alice.press("enter")
	alice.sees("search moves: zzz▏  ✗ no move matches “zzz”: esc shows every move")
	alice.seesNo("nothing to play right now")
	alice.press("esc")
	alice.sees("MARKETPLACE", "MOVES 1/")
	alice.seesNo("no move matches", "search moves")
	alice.press("/", "qq", "down")
	alice.sees("MOVES 1/")
	alice.seesNo("no move matches", "search moves")
	alice.press("q")
	alice.sees("OPEN SEATS", "YOUR GAMES (1)")
}
