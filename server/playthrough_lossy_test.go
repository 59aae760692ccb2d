package server

import "testing"

// TestPlayThroughLossyChoicesAsk (issue 36, point 5): Done with every
// die still unplaced asks once, saying what is lost, and any other key
// (esc too) keeps the dice and the table.
func TestPlayThroughLossyChoicesAsk(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")
	alice.toWorkPhase()
	alice.sees("dice: 6 1 3 6")
	alice.press("/", "done")
	alice.sees("▸ Done with the work phase")
	alice.press("enter")
	alice.sees("press enter again to play the move marked ⏎, with 4 dice unused", "⏎ Done")
	alice.press("esc")
	alice.seesNo("press enter again", "⏎ Done")
	alice.sees("dice: 6 1 3 6", "work phase")
}
