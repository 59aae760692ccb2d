package session

import (
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
)

// TestMenuPutsCostlyMovesLast plays seeded games through the engine and
// checks every menu on the way: each legal move is in exactly one group,
// and groups come in kindRank order, so the menu never opens on a paid
// refresh or on Done while anything else can be played.
func TestMenuPutsCostlyMovesLast(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		s, err := factories.New(factories.Config{Players: 2}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 400 && s.Phase != factories.GameOver; step++ {
			seat := factories.StatusOf(s).Acting[0]
			v := factories.ViewOf(s, seat)
			m := newMenu(&v, menu{})
			n := 0
			for i, g := range m.groups {
				n += len(g.moves)
				if i > 0 && kindRank[m.groups[i-1].moves[0].move.Kind] > kindRank[g.moves[0].move.Kind] {
					t.Fatalf("seed %d step %d: group %q comes after %q", seed, step, g.title, m.groups[i-1].title)
				}
			}
			if n != len(v.Legal) {
				t.Fatalf("seed %d step %d: menu holds %d moves, the engine offers %d", seed, step, n, len(v.Legal))
			}
			first := m.groups[0].moves[0].move.Kind
			if len(m.groups) > 1 && (first == factories.Refresh || first == factories.Done) {
				t.Fatalf("seed %d step %d: the menu opens on %s with %d groups", seed, step, first, len(m.groups))
			}
			// Play the last move of the first group: progress without Done
			// whenever anything else is possible.
			g := m.groups[0]
			if s, _, err = factories.Apply(s, seat, g.moves[len(g.moves)-1].move); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	}
}
