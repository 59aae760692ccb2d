package server

import "testing"

// TestPlayThroughNewRoom is the new-room form for each game at 80x24:
// every row explains itself in a line under the form while the cursor is
// on it, options that mean nothing are hidden until they do, ? explains
// every row, and the note that the bot plays a turn goes with the clock
// (issue 25, point 10).
func TestPlayThroughNewRoom(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS", "n new room")
	alice.press("n")

	// Fantastic Factories: The Machine's level is for a solo game only.
	alice.sees("NEW ROOM", "◂ Fantastic Factories ▸", "the game to play")
	alice.seesNo("difficulty")
	alice.press("down")
	alice.sees("how many sit at the table, bots included")
	alice.press("left")
	alice.sees("seats       ◂ 1 ▸", "difficulty  ◂ medium ▸")
	alice.press("down", "down")
	alice.sees("The Machine's level: it starts with 2 (easy) to 5 (insane) blueprints built")
	alice.press("?")
	alice.sees("what each setting does", "difficulty: The Machine's level", "away grace: how long one may be away")
	alice.press("x")
	alice.sees("◂ Fantastic Factories ▸", "The Machine's level: it starts")
	alice.seesNo("what each setting does")

	// Furnace: arthur only with capitalists.
	alice.press("up", "up", "up")
	alice.sees("the game to play")
	alice.press("right")
	alice.sees("◂ Furnace ▸", "capitalists ◂ off ▸", "chain       ◂ off ▸")
	alice.seesNo("arthur", "difficulty")
	alice.press("down", "down", "down", "down")
	alice.sees("each player is dealt a capitalist with a power of their own")
	alice.press("down")
	alice.sees("production chain: your cards form a row that produces left to right")
	alice.press("up", "right")
	alice.sees("capitalists ◂ on ▸", "arthur      ◂ alone ▸")
	alice.press("down", "down")
	alice.sees("Arthur's extra 2 disc: on a turn of its own, or paired with another")
	alice.press("up", "up", "left")
	alice.sees("capitalists ◂ off ▸")
	alice.seesNo("arthur")

	// The clock: with it off, no turn goes to the bot. From capitalists:
	// chain, bots, away grace, clock (no bot kind without a bot).
	alice.seesNo("bot kind")
	alice.press("down", "down", "down", "down")
	alice.sees("the time each turn may take", "(then the bot plays the turn)")
	alice.press("right")
	alice.sees("clock       ◂ off ▸")
	alice.seesNo("then the bot plays the turn")
	alice.press("esc")
	alice.sees("OPEN SEATS")
}
