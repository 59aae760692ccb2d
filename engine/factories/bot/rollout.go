package bot

import (
	"math"

	"github.com/smokestack/smokestack/engine/factories"
)

// Rollout limits. In solo play the best rollTop market moves of the
// lookahead are each played to the end of the game in rollWorlds guessed
// worlds by a cheap policy: a rollWidth x rollDepth beam in the work phase,
// the judge alone in the market phase. rollWin is what a win is worth on
// top of the final margin.
var (
	rollTop    = 4
	rollWorlds = 16
	rollWidth  = 3
	rollDepth  = 5
	rollWin    = 2.0
)

// bestRollout returns the index in legal of the candidate (cands index
// legal through first) whose rollouts over worlds total best. Every
// candidate meets the same worlds, dice and The Machine's rolls included,
// so luck mostly cancels out of the comparison.
func bestRollout(seat int, worlds []factories.State, legal []factories.Move, cands []node) int {
	best, bestScore := cands[0].first, math.Inf(-1)
	for _, c := range cands {
		total := 0.0
		for _, w := range worlds {
			next, _, err := factories.Apply(w, seat, legal[c.first])
			if err != nil {
				next = w // the guessed world differs; the move is legal anyway
			}
			total += rollout(next, seat)
		}
		if total > bestScore {
			best, bestScore = c.first, total
		}
	}
	return best
}

// rollout plays the solo game s to its end with the cheap policy for seat
// (The Machine plays itself inside the engine) and returns seat's final
// margin over The Machine, plus rollWin for a win: a tie is The Machine's.
func rollout(s factories.State, seat int) float64 {
	for s.Phase != factories.GameOver {
		legal := factories.Legal(s, seat)
		if len(legal) == 0 {
			break
		}
		m := legal[0]
		if len(legal) > 1 {
			j := stateJudge(&s, seat)
			if s.Phase == factories.WorkPhase {
				// The world of a rollout is fixed, so the plan's moves
				// lead exactly where the search saw them lead: play the
				// whole plan at once instead of searching again each move.
				best := search(s, legal, j, rollWidth, rollDepth)
				if best.state == nil {
					break // no legal move applied: a rules bug, not a plan
				}
				s = *best.state
				continue
			}
			m = bestByJudge(s, legal, j)
		}
		next, _, err := factories.Apply(s, seat, m)
		if err != nil {
			break
		}
		s = next
	}
	margin := 0.0
	for _, sc := range factories.Scores(s) {
		switch {
		case sc.Machine:
			margin -= float64(sc.Total)
		case sc.Seat == seat:
			margin += float64(sc.Total)
			if sc.Winner {
				margin += rollWin
			}
		}
	}
	return margin
}

// bestByJudge is the market move whose position the judge scores best; a
// paid refresh is never worth its cost to the judge, which cannot see the
// new row.
func bestByJudge(s factories.State, legal []factories.Move, j judge) factories.Move {
	best, bestScore := legal[0], math.Inf(-1)
	for _, m := range legal {
		if m.Kind == factories.Refresh {
			continue
		}
		next, _, err := factories.Apply(s, j.seat, m)
		if err != nil {
			continue
		}
		if v := j.value(&next); v > bestScore {
			best, bestScore = m, v
		}
	}
	return best
}
