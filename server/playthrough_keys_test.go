package server

import (
	"strings"
	"testing"
)

// The input model's flows (issue 36): a key goes to the top layer only,
// esc closes that layer and never leaves a table or the lobby, a screen
// not shown takes no keys, and the ? page says so on every screen.

// soloAt seats a new player at a new one-seat Fantastic Factories table
// (seeded), at a terminal of w x h, on their first turn.
func soloAt(t *testing.T, addr string, w, h int, seed string) (*player, string) {
	t.Helper()
	code := newRoom(t, dialKey(t, addr, "host", newKey(t)), "--players 1 --seed "+seed)
	alice := sitDown(t, addr, "alice", w, h, "join "+code)
	alice.sees("MARKETPLACE", "MOVES 1/", "your turn")
	return alice, code
}

// toWorkPhase takes the first blueprint, which ends a solo market phase
// and rolls the dice.
func (p *player) toWorkPhase() {
	p.t.Helper()
	p.press("/", "take ")
	p.sees("search moves: take ")
	p.press("enter")
	p.sees("work phase", "played: Take ")
}

// TestPlayThroughEscClosesOnlyTheTop (issue 36, point 1): esc on the
// confirm line of a costly move cancels it and stays at the table; so
// does esc after a search that played its match, and after i, esc, ↑.
// Esc at the table itself says how to leave; q leaves.
func TestPlayThroughEscClosesOnlyTheTop(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")

	alice.press("/", "hire")
	alice.sees("search moves: hire")
	alice.press("enter")
	alice.sees("press enter again to play the move marked ⏎", "⏎ Hire ")
	alice.press("esc")
	alice.seesNo("press enter again", "⏎ Hire ")
	alice.sees("MARKETPLACE", "market phase")
	alice.sees("Moves matching “hire”")
	alice.press("esc") // the search the confirm was made in
	alice.seesNo("Moves matching")
	alice.press("esc")
	alice.sees("nothing to close: q leaves the table", "MARKETPLACE")

	alice.toWorkPhase()
	alice.press("esc")
	alice.sees("nothing to close: q leaves the table", "work phase")

	alice.press("i")
	alice.sees("CARD REFERENCE")
	alice.press("esc")
	alice.sees("MARKETPLACE")
	alice.press("up", "esc")
	alice.sees("nothing to close: q leaves the table", "MARKETPLACE", "work phase")
	alice.seesNo("OPEN SEATS")

	alice.press("q")
	alice.sees("OPEN SEATS", "YOUR GAMES (1)")
	alice.press("esc") // the lobby is a bottom layer too
	alice.sees("nothing to close: q leaves smokestack", "OPEN SEATS")
}

// TestPlayThroughTooSmallTakesNoKeys (issue 36, point 2): behind "make
// the window bigger" keys do nothing but make the message say so: enter
// at a table plays nothing, s in the lobby starts no game.
func TestPlayThroughTooSmallTakesNoKeys(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")
	alice.toWorkPhase()

	alice.resize(70, 20)
	alice.sees("make the window at least 80x24", "(it is 70x20)")
	alice.seesNo("keys do nothing")
	alice.press("enter", "enter", "enter")
	alice.sees("make the window at least 80x24", "keys do nothing until then")
	alice.resize(80, 24)
	// The last thing played is still the market's blueprint.
	alice.sees("work phase", "MOVES 1/", "played: Take ", "compound: no buildings yet")
	alice.seesNo("press enter again", "⏎", "keys do nothing")

	alice.press("q")
	alice.sees("OPEN SEATS", "YOUR GAMES (1)")
	alice.resize(60, 20)
	alice.sees("make the window at least 80x24")
	alice.press("s")
	alice.sees("keys do nothing until then")
	alice.resize(80, 24)
	alice.sees("OPEN SEATS", "YOUR GAMES (1)")
	alice.seesNo("MARKETPLACE", "YOUR GAMES (2)", "creating")
}

// TestPlayThroughKeysPage (issue 36, point 12): ? lists esc, Ctrl-C and
// the letter keys (l, k, j; h is the hint at a table) in the lobby and at
// the table; Home/End and PgUp/PgDn move in the
// menu's moves; the mouse is never reported, so the terminal's own
// select-and-copy works.
func TestPlayThroughKeysPage(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS")
	alice.press("?")
	alice.sees("KEYS", "↑/k", "↓/j", "esc    close what is on top (never leaves)", "ctrl+c leave smokestack")
	alice.press("x")
	alice.sees("OPEN SEATS")
	alice.leave()

	alice, _ = soloAt(t, srv.addr, 80, 24, "7")
	alice.press("?")
	alice.sees("KEYS", "→/l/tab", "←/S-tab", "h         hint: best moves", "↑/k", "↓/j", "home/end", "pgup/pgdn",
		"esc    close what is on top (never leaves)", "ctrl+c leave smokestack")
	alice.press("esc")
	alice.sees("MARKETPLACE")

	alice.toWorkPhase()
	alice.press("/", " on ") // the Headquarters' moves, one group
	alice.sees("search moves:  on ")
	first := alice.selectedMove()
	alice.press("end")
	alice.waitScreen("end selects the last move", func(string) bool { return alice.selectedMove() != first })
	last := alice.selectedMove()
	alice.press("home")
	alice.waitScreen("home selects the first move", func(string) bool { return alice.selectedMove() == first })
	alice.press("pgdown")
	alice.waitScreen("pgdn moves down a page", func(string) bool { return alice.selectedMove() != first })
	alice.press("pgup")
	alice.waitScreen("pgup moves back up", func(string) bool { return alice.selectedMove() == first })
	if first == last {
		t.Fatalf("home and end select the same move %q", first)
	}

	for _, mode := range []string{"\x1b[?1000h", "\x1b[?1002h", "\x1b[?1003h", "\x1b[?1006h"} {
		if strings.Contains(alice.out.String(), mode) {
			t.Errorf("the server asked the terminal for mouse reports (%q): select-and-copy would not work", mode)
		}
	}
}

// TestPlayThroughTakeBackOneRule (issue 36, point 13): u and the menu's
// Take back follow one rule: a move taken back loses nothing, so both
// take it back at once.
func TestPlayThroughTakeBackOneRule(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "7")
	alice.toWorkPhase()
	place := func() {
		alice.press("/", "on generate")
		alice.sees("search moves: on generate")
		alice.press("enter")
		alice.sees("played: ", " on generate")
	}
	place()
	alice.press("u")
	alice.sees("played: Take back your last move")
	alice.seesNo("press enter again")

	place()
	alice.press("/", "take back")
	alice.sees("search moves: take back", "Take back your last move")
	alice.press("enter")
	alice.sees("played: Take back your last move")
	alice.seesNo("press enter again", "⏎ Take back")
}

// selectedMove is the menu's selected move as the player reads it: the
// line the ▸ marks (a group's title is marked ◂ … ▸).
func (p *player) selectedMove() string {
	for _, l := range strings.Split(p.screen(), "\n") {
		if i := strings.LastIndex(l, "▸ "); i >= 0 && !strings.Contains(l, "◂") {
			return strings.TrimSpace(l[i:])
		}
	}
	return ""
}

// TestPlayThroughMenuShowsWhatDiffers (issue 36, point 8): menu lines
// that begin alike and run past the menu's width give up their shared
// words, not their ends: each Hire line shows the card it discards.
// Seed 25 offers the Electrician for one of three cards.
func TestPlayThroughMenuShowsWhatDiffers(t *testing.T) {
	srv := startServer(t)
	alice, _ := soloAt(t, srv.addr, 80, 24, "25")
	alice.press("/", "electrician")
	alice.sees("▸ Hire Electrician, discarding Mega", "  … discarding Assembly Line", "  … discarding Solar Array")
	alice.seesNo("discarding Ass…", "discarding Sola…")
}
