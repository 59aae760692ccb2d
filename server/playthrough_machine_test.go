package server

import (
	"strings"
	"testing"
)

// TestPlayThroughMachineRollsFirst (issue 36, point 11): the log tells
// The Machine's turn in the order it happens, its roll before the card
// its dice take.
func TestPlayThroughMachineRollsFirst(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")
	alice.toWorkPhase()
	alice.press("/", "done")
	alice.sees("▸ Done with the work phase")
	alice.press("enter")
	alice.sees("press enter again")
	alice.press("enter")
	alice.sees("round 2", "The Machine rolled")
	alice.press("g")
	alice.sees("GAME LOG", "The Machine rolled", "The Machine added")
	lines := strings.Split(alice.screen(), "\n")
	if added, rolled := slicesIndex(lines, "The Machine added"), slicesIndex(lines, "The Machine rolled"); added < rolled {
		t.Fatalf("The Machine's card is logged before its roll:\n%s", alice.screen())
	}
}

// slicesIndex is the index of the first line holding s, or -1.
func slicesIndex(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}
