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

// lookahead ranks solo market moves in two rounds, best first. First each
// move is scored by what the seat can make of it in the work phase that
// follows: in a few guessed worlds (hidden cards and dice drawn anew in
// each), the move is applied, the dice are rolled and a beam search plays
// the work phase. Then the best lim.top moves are played to the end of the
// game in other worlds, as many as lim's budget buys, and ranked by their
// mean final margin over The Machine (only those are returned): the
// judge's score of one round cannot see which card The Machine takes next
// or when the game will end. Every move meets the same worlds, so the
// comparison is fair (with lim.race, every move still in the race; see rank).
func (g *greedy) lookahead(v factories.View, first *factories.State, j judge, lim rollouts) []node {
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
		cands = append(cands, node{first: i, score: total / float64(len(worlds))})
	}
	if len(cands) == 0 {
		return []node{{first: 0}}
	}
	slices.SortStableFunc(cands, func(a, b node) int { return compareDesc(a.score, b.score) })
	if lim.maxWorlds == 0 || len(cands) == 1 {
		return cands
	}
	world := func() *factories.State { return g.guess(v) }
	return g.x.rank(v.Seat, world, v.Legal, cands[:min(len(cands), lim.top)], lim)
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
