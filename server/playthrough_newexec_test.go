package server

import (
	"strings"
	"testing"
)

// listed reports whether code shows on screen in the list titled title:
// below its title and above the next list's.
func listed(screen, title, code string) bool {
	at := strings.Index(screen, title)
	if at < 0 {
		return false
	}
	rest := screen[at+len(title):]
	for _, next := range []string{"OPEN SEATS", "IN PLAY: WATCH", "YOUR GAMES"} {
		if end := strings.Index(rest, next); end >= 0 && next != title {
			rest = rest[:end]
		}
	}
	return strings.Contains(rest, code)
}

// TestPlayThroughNewOverExec is `new` over exec, then the lobby: the
// text new prints says who hosts the room and who sits in it; a room made
// without --sit waits with nobody seated, its creator included, and is
// not theirs yet; one made with --sit seats its creator, and shows under
// YOUR GAMES in their lobby, whence they open their seat.
func TestPlayThroughNewOverExec(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.sees("OPEN SEATS", "YOUR GAMES")
	exec := dialKey(t, srv.addr, "alice", alice.key)

	r := run(t, exec, "new --game furnace", "")
	open := strings.TrimSpace(r.stdout)
	if r.status != 0 || !strings.Contains(r.stderr, "You host it") ||
		!strings.Contains(r.stderr, "Nobody sits in it yet, not even you") {
		t.Fatalf("new: status %d, said:\n%s", r.status, r.stderr)
	}
	for _, l := range strings.Split(r.stderr, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("new says a line wider than 80 columns: %q", l)
		}
	}
	alice.waitScreen(open+" under OPEN SEATS only", func(s string) bool {
		return listed(s, "OPEN SEATS", open) && !listed(s, "YOUR GAMES", open)
	})
	alice.sees("0/2")

	r = run(t, exec, "new --game furnace --sit", "")
	mine := strings.TrimSpace(r.stdout)
	if r.status != 0 || !strings.Contains(r.stderr, "You sit in seat 1: it shows under YOUR GAMES") {
		t.Fatalf("new --sit: status %d, said:\n%s", r.status, r.stderr)
	}
	alice.waitScreen(mine+" under YOUR GAMES", func(s string) bool { return listed(s, "YOUR GAMES", mine) })

	// From YOUR GAMES to her seat: the list before OPEN SEATS, going back.
	alice.press("\x1b[Z", "enter") // shift+tab
	alice.sees("WAITING ROOM", "1 of 2 seats taken", mine)

	// A friend sees her seated in it, and sits down opposite.
	bob := sitDown(t, srv.addr, "bob", 80, 24, "join "+mine)
	bob.sees("round 1 of 4 · auction", "bob (you)")
	alice.sees("round 1 of 4 · auction", "bob")
}
