package bot

import (
	"math"

	"github.com/smokestack/smokestack/engine/factories"
)

// Rollout limits. In solo play the best rollTop market moves of the
// lookahead are each played to the end of the game in guessed worlds by a
// cheap policy: a rollWidth x rollDepth beam in the work phase, the judge
// alone in the market phase. A decision gets world after world until the
// moves it has played (the lookahead's too) reach rollBudget, with at
// least rollMinWorlds and at most rollMaxWorlds worlds: a budget in moves,
// not in time, so a seeded game replays the same way on any machine. Early
// in the game a rollout is long and the budget buys few worlds; late, many.
// rollWin is what a win is worth on top of the final margin.
var (
	rollTop       = 4
	rollBudget    = 50000
	rollMinWorlds = 2
	rollMaxWorlds = 64
	rollWidth     = 3
	rollDepth     = 5
	rollWin       = 2.0
)

// bestRollout returns the index in legal of the candidate (cands index
// legal through first) whose rollouts total best, world by world until the
// budget is spent (see rollBudget). world makes the next guessed world;
// every candidate meets the same worlds, dice and The Machine's rolls
// included, so luck mostly cancels out of the comparison.
func (x *searcher) bestRollout(seat int, world func() *factories.State, legal []factories.Move, cands []node) int {
	totals := make([]float64, len(cands))
	for n := 0; n < rollMaxWorlds && (n < rollMinWorlds || x.played < rollBudget); n++ {
		w := world()
		for i, c := range cands {
			// A move of the view the guessed world refuses is played as
			// if passed: the world differs, the move is legal anyway.
			next := x.playOrStay(w, seat, legal[c.first])
			totals[i] += x.rollout(next, seat)
			x.put(next)
		}
		x.put(w)
	}
	best := 0
	for i := range cands {
		if totals[i] > totals[best] {
			best = i
		}
	}
	return cands[best].first
}

// rollout plays the solo game s to its end in place with the cheap policy
// for seat (The Machine plays itself inside the engine) and returns seat's
// final margin over The Machine, plus rollWin for a win: a tie is The
// Machine's.
func (x *searcher) rollout(s *factories.State, seat int) float64 {
	for s.Phase != factories.GameOver {
		legal := x.root.Legal(s, seat)
		if len(legal) == 0 {
			break
		}
		m := legal[0]
		if len(legal) > 1 {
			j := stateJudge(s, seat)
			if s.Phase == factories.WorkPhase {
				// The world of a rollout is fixed, so the plan's moves
				// lead exactly where the search saw them lead: play the
				// whole plan at once instead of searching again each move.
				best := x.search(s, legal, j, rollWidth, rollDepth)
				if best.state == nil {
					break // no legal move applied: a rules bug, not a plan
				}
				best.state.CopyTo(s)
				x.put(best.state)
				continue
			}
			m = x.bestByJudge(s, legal, j)
		}
		if err := s.Play(seat, m, nil); err != nil {
			break
		}
	}
	return margin(s, seat)
}

// margin is seat's final margin over The Machine in the finished solo game
// s, plus rollWin for a win.
func margin(s *factories.State, seat int) float64 {
	margin := 0.0
	for _, sc := range factories.Scores(*s) {
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
func (x *searcher) bestByJudge(s *factories.State, legal []factories.Move, j judge) factories.Move {
	best, bestScore := legal[0], math.Inf(-1)
	for _, m := range legal {
		if m.Kind == factories.Refresh {
			continue
		}
		next := x.play(s, j.seat, m)
		if next == nil {
			continue
		}
		if v := j.value(next); v > bestScore {
			best, bestScore = m, v
		}
		x.put(next)
	}
	return best
}
