package bot

import (
	"slices"

	"github.com/smokestack/smokestack/engine/factories"
)

// Market lookahead limits: how many guessed worlds each market move is
// played out in, and the beam that plays the work phase that follows.
var (
	lookSamples = 3
	lookWidth   = 6
	lookDepth   = 8
)

// lookahead chooses a solo market move in two rounds. First each move is
// scored by what the seat can make of it in the work phase that follows:
// in a few guessed worlds (hidden cards and dice drawn anew in each), the
// move is applied, the dice are rolled and a beam search plays the work
// phase. Then the best rollTop moves are played to the end of the game in
// other worlds, as many as the budget buys (see rollBudget), and the one
// with the best final
// margin over The Machine is chosen: the judge's score of one round cannot
// see which card The Machine takes next or when the game will end. Every
// move meets the same worlds, so the comparison is fair.
func (g *greedy) lookahead(v factories.View, first *factories.State, j judge) factories.Move {
	worlds := []*factories.State{first}
	for len(worlds) < lookSamples {
		worlds = append(worlds, g.guess(v))
	}
	defer func() {
		for _, w := range worlds[1:] {
			g.x.put(w)
		}
	}()
	work := j
	work.dice = true
	var cands []node
	for i, m := range v.Legal {
		if m.Kind == factories.Refresh {
			continue
		}
		total := 0.0
		for _, w := range worlds {
			next := g.x.playOrStay(w, v.Seat, m)
			total += g.x.workValue(next, v.Seat, work)
			g.x.put(next)
		}
		cands = append(cands, node{first: i, score: total})
	}
	if len(cands) == 0 {
		return v.Legal[0]
	}
	slices.SortStableFunc(cands, func(a, b node) int { return compareDesc(a.score, b.score) })
	if rollMaxWorlds == 0 || len(cands) == 1 {
		return v.Legal[cands[0].first]
	}
	world := func() *factories.State { return g.guess(v) }
	return v.Legal[g.x.bestRollout(v.Seat, world, v.Legal, cands[:min(len(cands), rollTop)])]
}

// workValue is the best position a beam search reaches from s in the work
// phase, or the position itself outside it.
func (x *searcher) workValue(s *factories.State, seat int, j judge) float64 {
	if s.Phase != factories.WorkPhase || s.Players[seat].Done {
		return j.value(s)
	}
	legal := x.root.Legal(s, seat)
	if len(legal) == 0 {
		return j.value(s)
	}
	best := x.search(s, legal, j, lookWidth, lookDepth)
	x.put(best.state)
	return best.score
}
