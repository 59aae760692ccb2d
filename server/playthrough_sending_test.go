package server

import (
	"fmt"
	"strings"
	"testing"
)

// TestPlayThroughKeysWhileSending (issue 36, point 3): three enters typed
// at once on Take: one plays it; the two that came while it was on its
// way are not lost silently, and never arm the costly Build the work
// phase's menu opens on: the status line says they were not played.
func TestPlayThroughKeysWhileSending(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")
	alice.sees("◂ Blueprint 1: ")
	alice.press("\r\r\r") // one read, as a quick hand types them
	alice.sees("work phase", "✗ not played: Take ", " is no longer on offer")
	alice.seesNo("⏎", "press enter again")
}

// TestPlayThroughMenuKeepsItsPlace (issue 36, point 4): after each die
// placed on the Headquarters the menu stays there, not back on group 1;
// after the last die it does not open on Take back. Seed 7 rolls four
// dice.
func TestPlayThroughMenuKeepsItsPlace(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")
	alice.toWorkPhase()
	alice.sees("dice: 6 1 3 6")
	for i := 0; !alice.shows("◂ Headquarters ▸"); i++ {
		if i == 10 {
			t.Fatalf("no Headquarters group:\n%s", alice.screen())
		}
		shown := alice.screen()
		alice.press("right")
		alice.waitScreen("the next group", func(s string) bool { return s != shown })
	}
	// Four dice: after each of the first three the menu is still on the
	// Headquarters; after the last it has nothing to place, and its
	// nearest neighbour is not Take back.
	for die := 1; die <= 4; die++ {
		mv := strings.TrimPrefix(alice.selectedMove(), "▸ ")
		alice.press("enter")
		alice.sees("played: " + mv)
		if die < 4 {
			alice.sees("◂ Headquarters ▸", "dice: ", fmt.Sprintf("%d placed", die))
		}
	}
	alice.sees("dice: all placed", "MOVES ")
	alice.seesNo("◂ Headquarters ▸", "◂ Take back (u) ▸")
}

// shows reports whether the player's screen shows s now.
func (p *player) shows(s string) bool { return strings.Contains(p.screen(), s) }
