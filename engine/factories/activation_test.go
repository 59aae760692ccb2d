package factories

import (
	"strings"
	"testing"
)

// TestDescribeActivation: an activation says what it brings and what it
// costs, as the Headquarters' moves do (issue 25, point 11).
func TestDescribeActivation(t *testing.T) {
	v := View{Seats: 2, Players: []PlayerView{{Dice: []Die{{Value: 3}, {Value: 4}, {Value: 5}, {Value: 1}}}}}
	for _, tc := range []struct {
		m    Move
		want string
	}{
		{Move{Kind: Activate, Card: one(AssemblyLine), Dice: []int{0, 1, 2}}, "Activate Assembly Line with 3+4+5: 2 goods"},
		{Move{Kind: Activate, Card: one(Golem), Value: 1}, "Activate Golem (value 1): an extra die showing 1, paying 1 energy"},
		{Move{Kind: Activate, Card: one(Foundry), Dice: []int{1}}, "Activate Foundry with 4: 4 metal, paying 4 energy"},
		{Move{Kind: Activate, Card: one(Dojo), Dice: []int{3}}, "Activate Dojo with 1: the 1 becomes a 6, paying 1 energy"},
		{Move{Kind: Activate, Card: one(Manufactory), Dice: []int{0}, Choice: "draw"}, "Activate Manufactory with 3 for draw: 1 good and 2 blueprints"},
		{Move{Kind: Activate, Card: one(Motherlode), Dice: []int{1}}, "Activate Motherlode with 4: 2 metal"},
	} {
		if got := tc.m.Describe(v); got != tc.want {
			t.Errorf("%+v described as %q, want %q", tc.m, got, tc.want)
		}
	}
}

// TestEveryActivationSaysWhatItGives plays sample games and asks every
// legal activation its words: none is left without what it brings.
func TestEveryActivationSaysWhatItGives(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(6) {
		cfg := Config{Players: 1 + int(seed)%MaxPlayers}
		playRandom(t, cfg, seed, func(before, _ State, seat int, _ Move) {
			v := ViewOf(before, seat)
			for _, m := range v.Legal {
				if m.Kind != Activate {
					continue
				}
				seen[m.Card.Name()] = true
				if d := m.Describe(v); !strings.Contains(d, ": ") {
					t.Fatalf("%+v described as %q: no word of what it gives", m, d)
				}
			}
		})
	}
	if len(seen) < 5 {
		t.Errorf("only %d designs were activated in the sample games", len(seen))
	}
}
