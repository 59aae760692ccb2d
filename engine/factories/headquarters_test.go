package factories

import (
	"slices"
	"strings"
	"testing"
)

// TestHeadquarters places workers on Research, Generate and Mine one at a
// time and checks the running total, including the matching bonus.
func TestHeadquarters(t *testing.T) {
	cases := []struct {
		name   string
		action string
		dice   []int
		want   []int // running total of cards, energy or metal after each die
	}{
		{"Research takes any value", Research, []int{6}, []int{1}},
		{"Research with 1s", Research, []int{1}, []int{1}},
		{"Research, three workers, one pair: 4 blueprints (rulebook)", Research, []int{1, 3, 1}, []int{1, 2, 4}},
		{"Research, three alike: 5 blueprints", Research, []int{4, 4, 4}, []int{1, 3, 5}},
		{"Generate gives the die's value", Generate, []int{3}, []int{3}},
		{"Generate 1, 2, 3", Generate, []int{1, 2, 3}, []int{1, 3, 6}},
		{"Generate, three 2s: 8 energy (rulebook)", Generate, []int{2, 2, 2}, []int{2, 5, 8}},
		{"Generate, a pair of 3s", Generate, []int{3, 1, 3}, []int{3, 4, 8}},
		{"Mine gives 1 metal for a 4", Mine, []int{4}, []int{1}},
		{"Mine 4, 5, 6: 3 metal", Mine, []int{4, 5, 6}, []int{1, 2, 3}},
		{"Mine, a pair: 3 metal (rulebook)", Mine, []int{5, 5}, []int{1, 3}},
		{"Mine, three 6s: 5 metal", Mine, []int{6, 6, 6}, []int{1, 3, 5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := table{Seats: []seatSetup{{Dice: append(slices.Clone(tc.dice), 1)}}}.build(t)
			for i, want := range tc.want {
				s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{i}, Action: tc.action})
				p := s.Players[0]
				got := map[string]int{Research: len(p.Hand), Generate: p.Energy, Mine: p.Metal}[tc.action]
				if got != want {
					t.Fatalf("after %v on %s: %d; want %d", tc.dice[:i+1], tc.action, got, want)
				}
				if !p.Dice[i].Placed {
					t.Fatalf("die %d not placed", i)
				}
			}
			hq := s.Players[0].HQ
			slot := map[string][]int{Research: hq.Research, Generate: hq.Generate, Mine: hq.Mine}[tc.action]
			if !slices.Equal(slot, tc.dice) {
				t.Errorf("%s holds %v; want %v", tc.action, slot, tc.dice)
			}
		})
	}
}

func TestHeadquartersRefusals(t *testing.T) {
	s := table{Seats: []seatSetup{{Dice: []int{3, 4, 1, 1, 1, 1, 6}}}}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{1}, Action: Generate}, "Generate takes a 1, 2 or 3, not a 4")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{6}, Action: Generate}, "not a 6")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Mine}, "Mine takes a 4, 5 or 6, not a 3")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{2}, Action: Mine}, "not a 1")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{0, 1}, Action: Research}, "one die at a time")
	mustRefuse(t, s, 0, Move{Kind: Place, Action: Research}, "one die at a time")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: "build"}, "research, generate or mine")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{7}, Action: Research}, "no die number 8")
	for i := 2; i <= 4; i++ {
		s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{i}, Action: Generate})
	}
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{5}, Action: Generate}, "generate already has 3 workers")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{2}, Action: Research}, "already placed")
	for range 3 {
		s.Players[0].Dice = append(s.Players[0].Dice, Die{Value: 2})
		s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{len(s.Players[0].Dice) - 1}, Action: Research})
	}
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Research}, "research already has 3 workers")
	for range 3 {
		s.Players[0].Dice = append(s.Players[0].Dice, Die{Value: 5})
		s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{len(s.Players[0].Dice) - 1}, Action: Mine})
	}
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{1}, Action: Mine}, "mine already has 3 workers")
	if got := len(Legal(s, 0)); got == 0 {
		t.Errorf("no legal move with all actions full; Done must remain")
	}
	for _, m := range Legal(s, 0) {
		if m.Kind == Place {
			t.Errorf("%+v is legal with every action full", m)
		}
	}
}

// TestHeadquartersLogSaysWhy: a log line of the Headquarters gives the
// matching bonus as its reason, and only when it was earned.
func TestHeadquartersLogSaysWhy(t *testing.T) {
	s := table{Seats: []seatSetup{{Dice: []int{3, 3, 5, 5, 2, 2}}}}.build(t)
	for _, c := range []struct {
		die    int
		action string
		want   string
	}{
		{0, Generate, "generated 3 energy with a 3"},
		{1, Generate, "generated 4 energy with a 3 (+1 for matching a die already there)"},
		{2, Mine, "mined 1 metal with a 5"},
		{3, Mine, "mined 2 metal with a 5 (+1 for matching a die already there)"},
		{4, Research, "drew 1 blueprint (research)"},
		{5, Research, "drew 2 blueprints (research, +1 for matching a die already there)"},
	} {
		var events []Event
		s, events = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{c.die}, Action: c.action})
		if len(events) != 1 || events[0].Text != c.want {
			t.Errorf("die %d on %s: %+v; want %q", c.die, c.action, events, c.want)
		}
	}
}

// TestMarketplaceChangesAreLogged: a card taken from the marketplace is
// replaced in view of everyone, and the log says with what.
func TestMarketplaceChangesAreLogged(t *testing.T) {
	s := mustNew(t, 2)
	seat := s.Turn
	_, events := mustApply(t, s, seat, Move{Kind: Take, Slot: 1})
	last := events[len(events)-1]
	if last.Seat != -1 || last.Kind != "market" || !strings.Contains(last.Text, "new in the marketplace: ") {
		t.Fatalf("after a take: %+v", events)
	}
}
