package server

import "testing"

// TestPlayThroughWaitingRoom: the waiting room names the game and what
// was chosen, offers no card info, and esc on a message takes the
// message down, not the player out of the room; nor does a second: q
// leaves.
func TestPlayThroughWaitingRoom(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS", "t chat") // the 80-column bar offers the chat
	alice.press("n")
	alice.sees("NEW ROOM")
	alice.press("enter")
	alice.sees("WAITING ROOM", "· Fantastic Factories · 2 seats", "t chat · R rules of the game")
	alice.seesNo("card info")
	alice.press("i")
	alice.sees("✗ the cards show once the game starts")
	alice.press("esc")
	alice.seesNo("the cards show")
	alice.sees("WAITING ROOM")
	alice.press("esc")
	alice.sees("WAITING ROOM", "nothing to close: q leaves the table")
	alice.press("q")
	alice.sees("OPEN SEATS")
}
