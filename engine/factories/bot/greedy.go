package bot

import (
	"math"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// greedy plays the move that leads to the best static score of its own
// position (see judge): in the market phase one move ahead (in solo play
// each market move is played out through the work phase that follows, see
// lookahead), in the work phase the first move of the best plan a beam
// search finds, so that multi-step plays, such as generating energy to pay
// for a recipe, are seen.
// It plays moves with the engine's rules on a world rebuilt from the view
// (see guess), so it knows every recipe exactly without seeing hidden
// cards, in place on copies from its searcher's pool.
type greedy struct {
	rng engine.RNG
	x   searcher
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
	g.x.played = 0
	s := g.guess(v)
	defer g.x.put(s)
	j := newJudge(v)
	if v.Phase == factories.WorkPhase {
		return g.plan(s, v.Legal, j)
	}
	if v.Seats == 1 && lookSamples > 0 {
		return v.Legal[g.lookahead(v, s, j, greedyRollouts)[0].first]
	}
	best, bestScore := v.Legal[0], math.Inf(-1)
	for _, m := range v.Legal {
		next := g.x.play(s, v.Seat, m)
		if next == nil {
			continue // the guessed world differs; the move is legal anyway
		}
		if score := j.value(next) + g.marketBonus(v, m); score > bestScore {
			best, bestScore = m, score
		}
		g.x.put(next)
	}
	return best
}

// guess is guess with the bot's generator, into a position of its pool.
func (g *greedy) guess(v factories.View) *factories.State {
	s := g.x.get()
	*s = guess(v, &g.rng)
	return s
}

// Beam search limits: how many positions are kept at each depth, and how
// many own moves ahead the plan looks.
var (
	beamWidth = 64
	beamDepth = 12
)

// plan searches the seat's own work-phase moves with a beam (see search)
// and returns the first move of the best plan, so that multi-step plays,
// such as generating energy to pay for a recipe, are seen.
func (g *greedy) plan(s *factories.State, legal []factories.Move, j judge) factories.Move {
	best := g.x.search(s, legal, j, beamWidth, beamDepth)
	g.x.put(best.state)
	return legal[best.first]
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
