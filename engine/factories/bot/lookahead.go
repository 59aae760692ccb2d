package bot

import (
	"math"

	"github.com/smokestack/smokestack/engine/factories"
)

// Market lookahead limits: how many guessed worlds each market move is
// played out in, and the beam that plays the work phase that follows.
var (
	lookSamples = 3
	lookWidth   = 6
	lookDepth   = 8
)

// lookahead scores each market move by what the seat can make of it in the
// work phase that follows: in a few guessed worlds (hidden cards and dice
// drawn anew in each), the move is applied, the dice are rolled and a beam
// search plays the work phase; the move with the best average end position
// is chosen. Every move meets the same worlds, so the comparison is fair.
func (g *greedy) lookahead(v factories.View, first factories.State, j judge) factories.Move {
	worlds := []factories.State{first}
	for len(worlds) < lookSamples {
		worlds = append(worlds, guess(v, &g.rng))
	}
	work := j
	work.dice = true
	best, bestScore := v.Legal[0], math.Inf(-1)
	for _, m := range v.Legal {
		if m.Kind == factories.Refresh {
			continue
		}
		total := 0.0
		for _, w := range worlds {
			next, _, err := factories.Apply(w, v.Seat, m)
			if err != nil {
				next = w
			}
			total += workValue(next, v.Seat, work)
		}
		if total > bestScore {
			best, bestScore = m, total
		}
	}
	return best
}

// workValue is the best position a beam search reaches from s in the work
// phase, or the position itself outside it.
func workValue(s factories.State, seat int, j judge) float64 {
	if s.Phase != factories.WorkPhase || s.Players[seat].Done {
		return j.value(&s)
	}
	legal := factories.Legal(s, seat)
	if len(legal) == 0 {
		return j.value(&s)
	}
	return search(s, legal, j, lookWidth, lookDepth).score
}
