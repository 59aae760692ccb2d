package bot

import (
	"math"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// greedy plays each move that most improves a static score of its own
// position (see judge), looking one further move of its own ahead so that
// two-step plays, such as generating energy to pay for a recipe, are seen.
// It tries moves with factories.Apply on a world rebuilt from the view
// (see guess), so it knows every recipe exactly without seeing hidden cards.
type greedy struct {
	rng engine.RNG
}

func newGreedy(seed uint64) Bot { return &greedy{rng: engine.NewRNG(seed)} }

func (*greedy) Name() string { return "greedy" }

func (g *greedy) Choose(v factories.View) factories.Move {
	switch len(v.Legal) {
	case 0:
		return factories.Move{}
	case 1:
		return v.Legal[0]
	}
	s := guess(v, &g.rng)
	j := newJudge(v)
	best, bestScore := v.Legal[0], math.Inf(-1)
	for _, m := range v.Legal {
		next, _, err := factories.Apply(s, v.Seat, m)
		if err != nil {
			continue // the guessed world differs; the move is legal anyway
		}
		var score float64
		if v.Phase == factories.WorkPhase {
			score = g.lookahead(next, j)
		} else {
			score = j.value(&next) + g.marketBonus(v, m)
		}
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// lookahead scores s by the best single own move that follows, or by s
// itself when stopping there is better.
func (g *greedy) lookahead(s factories.State, j judge) float64 {
	best := j.value(&s)
	if s.Phase != factories.WorkPhase || s.Players[j.seat].Done {
		return best
	}
	for _, m := range factories.Legal(s, j.seat) {
		next, _, err := factories.Apply(s, j.seat, m)
		if err != nil {
			continue
		}
		best = max(best, j.value(&next))
	}
	return best
}

// marketBonus adjusts a market move for what the score of the seat's own
// position cannot see: a gift should go to the opponent least likely to
// win.
func (g *greedy) marketBonus(v factories.View, m factories.Move) float64 {
	if m.Kind != factories.Hire || v.Seats < 2 || m.Opponent < 0 || m.Opponent >= len(v.Players) {
		return 0
	}
	lead := 0
	for _, p := range v.Players {
		lead = max(lead, p.Goods+p.Prestige)
	}
	o := v.Players[m.Opponent]
	return 0.001 * float64(lead-o.Goods-o.Prestige)
}
