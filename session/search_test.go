package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestSearchWithNoMatch: a search that matches nothing says so, enter
// says why nothing was played (not "nothing to play right now", with
// moves on offer), and esc or an arrow brings every move back without
// leaving the room; a refusal goes with the search it was about.
func TestSearchWithNoMatch(t *testing.T) {
	d := quickSolo(t, newTestLobby())
	g, _ := d.game()
	d.until("the market turn", func() bool { return g.Moves() > 0 && !g.Pending() })

	d.keys("/", "z", "z", "z")
	d.until("the search's answer", d.screenContains("no move matches “zzz”"))
	d.keys("enter")
	if s, bad := g.Status(); !bad || !strings.Contains(s, "no move matches “zzz”: esc shows every move") {
		t.Fatalf("enter on a search that matches nothing: %q", s)
	}
	if on, f := g.Filter(); !on || f != "zzz" {
		t.Fatalf("enter closed the search: typing %v, %q", on, f)
	}
	d.keys("esc")
	if _, ok := d.game(); !ok {
		t.Fatalf("esc on a search left the room:\n%s", d.view())
	}
	if on, f := g.Filter(); on || f != "" {
		t.Fatalf("esc did not clear the search: typing %v, %q", on, f)
	}
	if _, ok := g.Selected(); !ok {
		t.Fatalf("after esc no move is selected:\n%s", d.view())
	}
	if s, _ := g.Status(); s != "" || strings.Contains(d.view(), "no move matches") {
		t.Fatalf("after esc the search's refusal stays (%q):\n%s", s, d.view())
	}

	for _, arrow := range []string{"down", "up", "right", "left"} {
		d.keys("/", "q", "q", arrow)
		if on, f := g.Filter(); on || f != "" {
			t.Fatalf("%s on a search that matches nothing: typing %v, %q", arrow, on, f)
		}
		if _, ok := g.Selected(); !ok {
			t.Fatalf("%s on a search that matches nothing selects no move:\n%s", arrow, d.view())
		}
	}
}

// TestSearchEndsWithTheTurn: a search typed on one turn and never played
// does not hide the moves of the next.
func TestSearchEndsWithTheTurn(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 53})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	b, err := l.Join(context.Background(), code, bob)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	a, err := l.Join(context.Background(), code, alice) // alice's other terminal
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	d.inGame()
	g, _ := d.game()
	d.until("a turn", func() bool { return g.Moves() > 0 || strings.Contains(d.view(), "bob's turn") })
	if g.Moves() == 0 {
		takeTurn(t, b)
		d.until("alice's turn", func() bool { return g.Moves() > 0 })
	}
	d.keys("/", "z", "z", "z")
	takeTurn(t, a) // played from her other terminal
	d.until("bob's turn", d.screenContains("bob's turn"))
	takeTurn(t, b)
	d.until("alice's next turn", func() bool { return g.Moves() > 0 && !strings.Contains(d.view(), "bob's turn") })
	if on, f := g.Filter(); on || f != "" {
		t.Fatalf("the last turn's search is still on: typing %v, %q:\n%s", on, f, d.view())
	}
	if strings.Contains(d.view(), "no move matches") {
		t.Fatalf("the new turn's menu is filtered:\n%s", d.view())
	}
}
