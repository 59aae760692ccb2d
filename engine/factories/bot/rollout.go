package bot

import (
	"math"
	"slices"

	"github.com/smokestack/smokestack/engine/factories"
)

// Rollout limits. In solo play greedy plays the best top market moves of
// the lookahead each to the end of the game in guessed worlds by a cheap
// policy: a rollWidth x rollDepth beam in the work phase, the judge alone
// in the market phase. A decision gets world after world until the moves
// it has played (the lookahead's too) reach the budget, with at least
// minWorlds and at most maxWorlds worlds: a budget in moves, not in time,
// so a seeded game replays the same way on any machine. Early in the game
// a rollout is long and the budget buys few worlds; late, many. rollWin
// is what a win is worth on top of the final margin.
var (
	greedyRollouts = rollouts{top: 4, budget: 50000, minWorlds: 2, maxWorlds: 64}
	rollWidth      = 3
	rollDepth      = 5
	rollWin        = 2.0
	// rollSteps bounds a rollout's decisions (a work phase's whole plan
	// is one); a game played out takes about 150.
	rollSteps = 1000
)

// rollouts bounds a market decision's playing out: how many candidate
// moves are played out, and the budget of moves played (see searcher's
// played) within a range of worlds.
type rollouts struct {
	top, budget, minWorlds, maxWorlds int
}

// rank plays the candidates cands (which index legal through first) out,
// world by world until the budget of lim is spent, and returns them with
// their mean margin (see margin) as score, best first. world makes the
// next guessed world; every candidate meets the same worlds, dice and The
// Machine's rolls included, so luck mostly cancels out of the comparison.
func (x *searcher) rank(seat int, world func() *factories.State, legal []factories.Move, cands []node, lim rollouts) []node {
	totals := make([]float64, len(cands))
	worlds := 0
	for ; worlds < lim.maxWorlds && (worlds < lim.minWorlds || x.played < lim.budget); worlds++ {
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
	ranked := slices.Clone(cands)
	for i := range ranked {
		ranked[i].score = totals[i] / float64(max(worlds, 1))
	}
	slices.SortStableFunc(ranked, func(a, b node) int { return compareDesc(a.score, b.score) })
	return ranked
}

// rollout plays the game s to its end in place, every seat by the cheap
// policy (The Machine plays itself inside the engine), and returns me's
// final margin over its best rival (see margin). In the work phase the
// seats play their plans one after the other, in seat order.
func (x *searcher) rollout(s *factories.State, me int) float64 {
	// The cheap policy of every seat can stall a game between seats
	// (nobody builds or makes goods, round after round): a rollout
	// stops at rollSteps decisions and is scored where it stands.
	for steps := 0; s.Phase != factories.GameOver && steps < rollSteps; steps++ {
		seat := s.Turn
		if s.Phase == factories.WorkPhase {
			seat = slices.IndexFunc(s.Players, func(p factories.Player) bool { return !p.Done })
		}
		if seat < 0 {
			break
		}
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
	return margin(s, me)
}

// margin is seat's final score in the finished game s less the best of
// its rivals' (The Machine's in solo play), plus rollWin for a win: a
// shared first place counts as one, a tie with The Machine does not.
func margin(s *factories.State, seat int) float64 {
	mine, rival := 0.0, math.Inf(-1)
	for _, sc := range factories.Scores(*s) {
		switch {
		case sc.Seat == seat && !sc.Machine:
			mine = float64(sc.Total)
			if sc.Winner {
				mine += rollWin
			}
		default:
			rival = max(rival, float64(sc.Total))
		}
	}
	if math.IsInf(rival, -1) {
		return mine
	}
	return mine - rival
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
