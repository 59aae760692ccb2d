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
// played) within a range of worlds. race spends it by successive halving
// (see rank) rather than evenly.
type rollouts struct {
	top, budget, minWorlds, maxWorlds int
	race                              bool
}

// rank plays the candidates cands (which index legal through first) out,
// world by world until the budget of lim is spent, and returns them with
// their mean margin (see margin) as score, best first. world makes the
// next guessed world; every candidate still in play meets the same
// worlds, dice and The Machine's rolls included, so luck mostly cancels
// out of the comparison.
//
// With lim.race the budget is spent by successive halving: the
// candidates are played out in stages, and after each stage but the last
// the worse half (by mean margin over the worlds they all met) is
// dropped, down to two. Each stage spends an equal share of the budget
// left after the lookahead (the first at least lim.minWorlds worlds), so
// the moves still in the race, the close ones, get two or three times the
// worlds an even split would give them, for the same budget. Without it
// there is one stage: every candidate meets every world. The survivors
// come first, by their mean margin; then the moves dropped, the latest
// first. A dropped move's score is its mean margin over the worlds it
// met, but never above the score of a move that outlasted it: it lost to
// that move in the worlds they shared, and the scores stay in their
// ranking's order.
func (x *searcher) rank(seat int, world func() *factories.State, legal []factories.Move, cands []node, lim rollouts) []node {
	stages := 1
	for n := len(cands); lim.race && n > 2; n = (n + 1) / 2 {
		stages++
	}
	totals, met := make([]float64, len(cands)), make([]int, len(cands))
	mean := func(i int) float64 { return totals[i] / float64(max(met[i], 1)) }
	alive := make([]int, len(cands)) // indices into cands, best first
	for i := range alive {
		alive[i] = i
	}
	var dropped [][]int // each stage's dropped, in the stage's order
	start, left := x.played, max(lim.budget-x.played, 0)
	worlds := 0
	for stage := range stages {
		spent := start + left*(stage+1)/stages
		most := lim.maxWorlds * (stage + 1) / stages
		for worlds < most && ((stage == 0 && worlds < lim.minWorlds) || x.played < spent) {
			w := world()
			for _, i := range alive {
				// A move of the view the guessed world refuses is played
				// as if passed: the world differs, the move is legal anyway.
				next := x.playOrStay(w, seat, legal[cands[i].first])
				totals[i] += x.rollout(next, seat)
				met[i]++
				x.put(next)
			}
			x.put(w)
			worlds++
		}
		// Every survivor met the same worlds: their means compare fairly.
		slices.SortStableFunc(alive, func(a, b int) int { return compareDesc(mean(a), mean(b)) })
		if stage < stages-1 {
			keep := (len(alive) + 1) / 2
			dropped = append(dropped, slices.Clone(alive[keep:]))
			alive = alive[:keep]
		}
	}
	order := alive
	for i := len(dropped) - 1; i >= 0; i-- {
		order = append(order, dropped[i]...)
	}
	ranked := make([]node, 0, len(cands))
	for k, i := range order {
		n := cands[i]
		n.score = mean(i)
		if k > 0 {
			n.score = min(n.score, ranked[k-1].score)
		}
		ranked = append(ranked, n)
	}
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
