package server

import "testing"

// TestPlayThroughFurnaceOwnRow is a 4-player Furnace auction at 80x24:
// the market and four seats leave no room for what each of your cards
// produces, so your row in the table says (y), and y shows your cards,
// each with its lines, without scrolling through every card on the board
// (issue 25, point 5).
func TestPlayThroughFurnaceOwnRow(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS", "n new room")
	alice.press("n")
	alice.sees("NEW ROOM", "◂ Fantastic Factories ▸")
	alice.press("right")
	alice.sees("◂ Furnace ▸")
	alice.press("down", "right", "right")
	alice.sees("seats       ◂ 4 ▸")
	// visibility, rounds, capitalists, chain: then the bots, in the last 3 seats.
	alice.press("down", "down", "down", "down", "down")
	alice.sees("bots sit in the last seats")
	alice.press("right", "right", "right")
	alice.sees("3 (seats 2–4)")
	alice.press("enter")
	alice.sees("round 1 of 4 · auction", "MARKET", "alice (you)", "start-", "(y)")
	alice.seesNo("YOUR CARDS")
	alice.press("y")
	alice.sees("YOUR CARDS", "what each card does in production", "upgrade companies", "any key: back to the table")
	alice.seesNo("MARKET")
	alice.press("x")
	alice.sees("MARKET", "(y)")
	alice.seesNo("YOUR CARDS")
}
