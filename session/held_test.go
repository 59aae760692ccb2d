package session_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// soloDriver seats alice at a seeded solo table at 80x24, played by a
// bot until stop holds, with moves on offer.
func soloDriver(t *testing.T, stop func(*factories.View) bool) (*driver, session.GameProbe) {
	t.Helper()
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 43})
	if stop != nil {
		playSolo(t, l, code, alice, stop)
	}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.until("moves on offer", func() bool { g, ok := d.game(); return ok && g.Moves() > 0 })
	g, _ := d.game()
	return d, g
}

// TestHeldEntersNeverPlayUnseen: three quick enters on Take. The first
// plays; the two typed while it was on its way wait, said on the status
// line, and are dropped with a note when the table that comes back (the
// work phase) no longer offers Take. None arms the costly move the work
// phase's menu opens on.
func TestHeldEntersNeverPlayUnseen(t *testing.T) {
	d, g := soloDriver(t, nil)
	take := g.Group()
	if !strings.HasPrefix(take, "Blueprint 1") {
		t.Fatalf("the market's menu opens on %q", take)
	}
	before := g.Version()
	d.keys("enter", "enter", "enter")
	if st, bad := g.Status(); bad || !strings.Contains(st, "keys waiting for the table: 2") || g.Held() != 2 {
		t.Fatalf("two enters while Take is sent: status %q (bad %v), %d held", st, bad, g.Held())
	}
	d.until("the answer and the work phase", func() bool { return !g.Pending() && g.Version() > before && g.Held() == 0 })
	st, bad := g.Status()
	if !bad || !strings.HasPrefix(st, "not played: Take ") || !strings.HasSuffix(st, " is no longer on offer") {
		t.Errorf("the enters that waited for Take: status %q (bad %v)", st, bad)
	}
	if g.Armed() || strings.Contains(d.view(), "⏎") || strings.Contains(d.view(), "press enter again") {
		t.Errorf("an enter that waited armed a move the player never saw:\n%s", d.view())
	}
}

// TestHeldUndoFollowsTheMoveSent: u typed while a move is on its way
// waits for it, then takes it back.
func TestHeldUndoFollowsTheMoveSent(t *testing.T) {
	d, g := soloDriver(t, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
	for _, k := range strings.Split("/on generate", "") {
		d.keys(k)
	}
	before := g.Version()
	d.keys("enter", "u")
	if g.Held() != 1 {
		t.Fatalf("u while the die is sent: %d held", g.Held())
	}
	d.until("the die and its take back", func() bool {
		st, _ := g.Status()
		return !g.Pending() && g.Held() == 0 && st == "played: Take back your last move"
	})
	if g.Version() <= before {
		t.Errorf("the version went from %d to %d: nothing was played", before, g.Version())
	}
}

// TestMenuKeepsItsPlace: after each die placed on the Headquarters the
// menu stays on them while they take dice, and after the last one it
// never opens on Take back.
func TestMenuKeepsItsPlace(t *testing.T) {
	d, g := soloDriver(t, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
	for i := 0; g.Group() != "Headquarters"; i++ {
		if i == 20 {
			t.Fatalf("no Headquarters group in %q", g.Groups())
		}
		d.keys("right")
	}
	for placed := 0; ; placed++ {
		if placed == 6 {
			t.Fatal("the Headquarters took more dice than were rolled")
		}
		before := g.Version()
		d.keys("enter")
		d.until("the die placed", func() bool { return !g.Pending() && g.Version() > before })
		if !slices.Contains(g.Groups(), "Headquarters") {
			if g.Group() == "Take back (u)" {
				t.Fatalf("after the last die the menu opens on Take back:\n%s", d.view())
			}
			return
		}
		if g.Group() != "Headquarters" {
			t.Fatalf("after die %d the menu moved to %q:\n%s", placed+1, g.Group(), d.view())
		}
	}
}

// TestHeldEnterPlaysTheMoveAsWorded: with two dice of one value, enter
// places one on research, and down and enter, typed before the table
// comes back, choose the same value on the next action. The menu then
// names the other die of that value for it: the move the player chose
// by its words is still on offer, and is played, not dropped as gone.
func TestHeldEnterPlaysTheMoveAsWorded(t *testing.T) {
	pair := 0
	d, g := soloDriver(t, func(v *factories.View) bool {
		if v.Phase != factories.WorkPhase || len(v.Legal) == 0 {
			return false
		}
		seen := map[int]bool{}
		for _, die := range v.You().Dice {
			if die.Value > 0 && seen[die.Value] && v.You().HQ.Research == nil {
				pair = die.Value
				return true
			}
			seen[die.Value] = true
		}
		return false
	})
	if pair == 0 {
		t.Fatal("no work phase with a pair of dice and nothing placed")
	}
	for _, k := range strings.Split(fmt.Sprintf("/%d on research", pair), "") {
		d.keys(k)
	}
	first := g.SelectedLabel()
	before := g.Version()
	d.keys("enter", "down")
	second := g.SelectedLabel()
	if !strings.HasPrefix(second, fmt.Sprintf("%d on ", pair)) || second == first {
		t.Fatalf("down from %q went to %q, not the same die on the next action", first, second)
	}
	d.keys("enter")
	if g.Held() != 1 {
		t.Fatalf("enter on %q while %q is sent: %d held", second, first, g.Held())
	}
	d.until("both dice played, or the second dropped", func() bool {
		_, bad := g.Status()
		return !g.Pending() && g.Held() == 0 && (g.Version() > before+1 || bad)
	})
	if st, bad := g.Status(); bad || st != "played: "+second {
		t.Errorf("the enter that waited for %q: status %q (bad %v); want it played", second, st, bad)
	}
}
