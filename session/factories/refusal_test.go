package factories

import (
	"errors"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// spoilt are moves near m that the engine may refuse: each field moved
// off its legal value, and the move's kind played in the other phase.
func spoilt(m factories.Move, v factories.View) []factories.Move {
	var out []factories.Move
	add := func(f func(*factories.Move)) {
		c := m
		c.Discard, c.Dice, c.Values = append([]factories.Card(nil), m.Discard...), append([]int(nil), m.Dice...), append([]int(nil), m.Values...)
		f(&c)
		out = append(out, c)
	}
	other := factories.Card(0)
	if len(v.Hand) > 0 {
		other = v.Hand[len(v.Hand)-1]
	}
	for _, s := range []int{-1, 4, (m.Slot + 1) % 4} {
		add(func(c *factories.Move) { c.Slot = s })
	}
	for _, c := range []factories.Card{other, 9999, -1, factories.CardsNamed(factories.Obelisk)[0]} {
		add(func(x *factories.Move) { x.Card = c })
	}
	for _, d := range [][]factories.Card{nil, {m.Card}, {other}, {other, other}, {9999}} {
		add(func(x *factories.Move) { x.Discard = d })
	}
	for _, d := range [][]int{nil, {0}, {0, 0}, {99}, {0, 1}, {0, 1, 2}, {1, 2, 3}} {
		add(func(x *factories.Move) { x.Dice = d })
	}
	for _, n := range []int{0, 7, -3, 3} {
		add(func(x *factories.Move) { x.Value = n })
		add(func(x *factories.Move) { x.Values = []int{n, n, n, n, n} })
		add(func(x *factories.Move) { x.Metal, x.Energy = n, 1 })
	}
	for _, s := range []string{"", "gold", "draw", "metal"} {
		add(func(x *factories.Move) { x.Choice = s })
	}
	for _, s := range []string{"research", "generate", "mine", "attic"} {
		add(func(x *factories.Move) { x.Action = s })
	}
	for _, s := range [][2]string{{"", "metal"}, {"blueprints", ""}, {"blueprints", "energy"}, {"contractors", "metal"}} {
		add(func(x *factories.Move) { x.Row, x.Pay = s[0], s[1] })
	}
	for _, k := range []factories.MoveKind{factories.Take, factories.Hire, factories.Pass, factories.Refresh, factories.Build,
		factories.Place, factories.Activate, factories.SetDice, factories.Choose, factories.DiscardDown, factories.Done,
		factories.Undo, "dance"} {
		add(func(x *factories.Move) { x.Kind = k })
	}
	return out
}

// TestRefusalsInEveryLanguage plays seeded games and plays spoilt moves
// at their positions: every refusal the engine gives is worded (its Words
// in English read exactly as its text) and in every other language
// leaves no message ID, template or missing value behind.
func TestRefusalsInEveryLanguage(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 4; seed++ {
		s, err := factories.New(factories.Config{Players: 1 + int(seed)%3, Undo: true}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 500 && s.Phase != factories.GameOver; step++ {
			seat := factories.StatusOf(s).Acting[0]
			v := factories.ViewOf(s, seat)
			if step%17 == 0 {
				for _, m := range v.Legal {
					for _, bad := range spoilt(m, v) {
						for _, who := range []int{seat, (seat + 1) % len(s.Players)} {
							if _, _, err := factories.Apply(s, who, bad); err != nil {
								checkRefusal(t, err, seen)
							}
						}
					}
				}
			}
			m := v.Legal[int(seed*7+uint64(step))%len(v.Legal)]
			if s, _, err = factories.Apply(s, seat, m); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	}
	if testing.Verbose() {
		t.Logf("%d kinds of refusal", len(seen))
	}
	if len(seen) < 45 {
		t.Errorf("only %d kinds of refusal were seen: %v", len(seen), seen)
	}
}

func checkRefusal(t *testing.T, err error, seen map[string]bool) {
	t.Helper()
	var r *engine.Refusal
	if !errors.As(err, &r) || r.ID == "" {
		t.Fatalf("%q is refused in English alone", err)
	}
	seen[r.ID] = true
	en := kit.Refusal(kit.Theme{}, "factories", err)
	// A Replicator's copy refused is worded as the copy's refusal.
	if en != err.Error() && !(strings.HasPrefix(err.Error(), "Replicator as ") && strings.HasSuffix(err.Error(), ": "+en)) {
		t.Fatalf("%s words %q; the engine says %q", r.ID, en, err)
	}
	for _, tag := range lang.Tags[1:] {
		got := kit.Refusal(kit.Theme{L: lang.For(tag)}, "factories", err)
		if unworded(got) || strings.Contains(got, "<no value>") || got == en {
			t.Fatalf("%s: %s words %q", tag, r.ID, got)
		}
	}
}
