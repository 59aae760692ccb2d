package factories

import (
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// TestTieNote: a tie on points at the top says what broke it, since the
// narrow score bars leave the tie-breakers out.
func TestTieNote(t *testing.T) {
	seats := kit.Seats{Names: []string{"alice", "bob"}, Bots: []string{"", ""}, Viewer: 0}
	sc := func(seat, total, metal, energy, hand, rank int) factories.Score {
		return factories.Score{Seat: seat, Total: total, Metal: metal, Energy: energy, Hand: hand, Rank: rank}
	}
	for _, c := range []struct {
		scores []factories.Score
		want   string
	}{
		{[]factories.Score{sc(1, 9, 0, 0, 10, 1), sc(0, 9, 0, 0, 9, 2)}, "tied on 9 points: bob wins with more cards in hand (10 to 9)"},
		{[]factories.Score{sc(0, 9, 2, 0, 0, 1), sc(1, 9, 1, 5, 0, 2)}, "tied on 9 points: You win with more metal (2 to 1)"},
		{[]factories.Score{sc(0, 9, 1, 3, 0, 1), sc(1, 9, 1, 2, 0, 2)}, "tied on 9 points: You win with more energy (3 to 2)"},
		{[]factories.Score{sc(0, 9, 1, 1, 1, 1), sc(1, 9, 1, 1, 1, 1)}, "tied on 9 points: the same metal, energy and cards in hand, so the win is shared"},
		{[]factories.Score{sc(0, 10, 0, 0, 0, 1), sc(1, 9, 0, 0, 0, 2)}, ""},
	} {
		if got := tieNote(kit.Theme{}, seats, c.scores); got != c.want {
			t.Errorf("tieNote(%+v) = %q, want %q", c.scores, got, c.want)
		}
	}
}
