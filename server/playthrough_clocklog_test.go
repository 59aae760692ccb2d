package server

import "testing"

// TestPlayThroughClockLog: a clock running out and the log. Alice lets
// her 5-second clock run out while bob waits at the table; the bot plays
// her turn, and every log says so: bob's reads "the bot played for alice:
// …", alice's own, on the board and in her whole log (g), "the bot played
// for you: …", never "You took…" (issue 25, point 2).
func TestPlayThroughClockLog(t *testing.T) {
	srv := startServer(t)
	alice, bob, _ := sitTwo(t, srv.addr, "--players 2 --clock 5s --seed 7")
	alice.sees("MARKETPLACE", "⏱")
	bob.sees("MARKETPLACE", "alice's turn")

	// Alice does nothing; her time runs out with bob waiting.
	bob.sees("the bot played for alice: ")
	alice.sees("the bot played for you: ")
	alice.seesNo("You took")
	alice.press("g")
	alice.sees("the bot played for you: ")
	alice.seesNo("You took")
}
