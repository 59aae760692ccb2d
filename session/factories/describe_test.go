package factories

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestDescribeReadsAsTheEngine plays seeded games and words every legal
// move of every seat's menu: in English, the move's Words read exactly as
// the engine's DescribeFor; in every other language they leave no ID
// unworded and no English key of a card or term behind.
func TestDescribeReadsAsTheEngine(t *testing.T) {
	names := kit.Seats{Names: []string{"alice", "bob", "carol"}, Bots: []string{"", "", ""}}
	kinds := map[factories.MoveKind]bool{}
	for seed := uint64(1); seed <= 6; seed++ {
		s, err := factories.New(factories.Config{Players: 1 + int(seed)%3, Undo: true}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 600 && s.Phase != factories.GameOver; step++ {
			seat := factories.StatusOf(s).Acting[0]
			v := factories.ViewOf(s, seat)
			names.Viewer = seat
			for _, mv := range v.Legal {
				kinds[mv.Kind] = true
				want := mv.DescribeFor(v, names.Name)
				if got := describe(kit.Theme{}, &v, names, mv); got != want {
					t.Fatalf("seed %d step %d: %+v worded %q; the engine says %q", seed, step, mv, got, want)
				}
				for _, tag := range lang.Tags[1:] {
					got := describe(kit.Theme{L: lang.For(tag)}, &v, names, mv)
					if unworded(got) {
						t.Fatalf("%s: %+v worded %q", tag, mv, got)
					}
				}
			}
			mv := v.Legal[int(seed+uint64(step))%len(v.Legal)]
			if mv.Kind == factories.Undo && len(v.Legal) > 1 {
				mv = v.Legal[0]
			}
			if s, _, err = factories.Apply(s, seat, mv); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	}
	if len(kinds) < 9 {
		t.Errorf("only %d kinds of move were worded: %v", len(kinds), kinds)
	}
}

// unworded reports a message ID or template left in a text.
func unworded(s string) bool {
	return strings.Contains(s, "factories.") || strings.Contains(s, "{{")
}
