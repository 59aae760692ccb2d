package bot

import (
	"math"
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// search is greedy that looks to the end of the game: its market moves
// are chosen by determinized rollouts between seats as well as in solo
// play, with more of them, and its work phase by a wider beam.
//
// It sees only its seat's view. Each rollout world is rebuilt from the
// view (guess), the deck and the other hands dealt from the cards the
// seat has not seen in an order drawn from the bot's own generator, so
// the real ones cannot reach a decision: that is what makes it an
// information-set search rather than a peek (TestSearchSeesOnlyTheView).
type search struct {
	greedy
	level
}

// level is a strength of the search bot: how a market decision plays its
// candidates out, and how the work phase's beam searches.
type level struct {
	name string
	roll rollouts
	beam int
	// worlds is how many guessed worlds the work phase's beam searches,
	// each plan's first move scored by its mean over them (see plans).
	worlds int
	// solo is the level against The Machine, when it differs.
	solo *level
	// crowd is the level with 3 or more seats, when it differs: crowd[i]
	// at 3+i seats, its last at any more.
	crowd []*level
}

// at is the level for a game of seats seats.
func (l *level) at(seats int) *level {
	if seats == 1 && l.solo != nil {
		return l.solo
	}
	if n := len(l.crowd); seats >= 3 && n > 0 {
		return l.crowd[min(seats-3, n-1)]
	}
	return l
}

// The search bots' levels: search and a quicker, weaker search-quick.
// The budgets are in work (moves played, positions searched, worlds
// dealt), never in time, so a seeded game replays the same on any
// machine under any load; they are sized for a decision's p99 within
// 250 ms of CPU time on one core at 1 and 2 seats and 500 ms at 5
// (BenchmarkSearchMove, docs/bots.md). Against The Machine, search
// spends more: a larger budget, one more candidate played out, and its
// work phase searched in four worlds (see plans) by a beam twice as wide,
// whose decisions still cost less than the market's (a work decision's
// p99 about 200 ms), and its market races the candidates by successive
// halving (see rank), so the two or three closest get two to three
// times the worlds for the same budget. Its solo budget, 255,000 moves,
// is the 170,000 it had before the search was made a third cheaper
// (docs/bots.md, A cheaper search): at about the same CPU time it won
// more solo games on hard. With 3 and 4 seats its market gets twice the
// budget: a rollout plays every rival's turns, so at 4 seats 150,000
// moves bought about half the worlds they buy at 2 (about 5 early in the
// game). 5 seats get 225,000, what their p99 affords (a world of 5 is
// longer, and a decision ends only after the world that reaches the
// budget). At 2 seats it keeps the level its 2-player figure was
// measured with.
var (
	searchLevel = level{name: "search", roll: rollouts{top: 5, budget: 150000, minWorlds: 3, maxWorlds: 128}, beam: 128, worlds: 1,
		solo:  &level{name: "search", roll: rollouts{top: 6, budget: 255000, minWorlds: 3, maxWorlds: 128, race: true}, beam: 256, worlds: 4},
		crowd: []*level{&searchCrowd, &searchCrowd, &searchFive}}
	searchCrowd = level{name: "search", roll: rollouts{top: 5, budget: 300000, minWorlds: 3, maxWorlds: 128}, beam: 128, worlds: 1}
	searchFive  = level{name: "search", roll: rollouts{top: 5, budget: 225000, minWorlds: 3, maxWorlds: 128}, beam: 128, worlds: 1}
	quickLevel  = level{name: "search-quick", roll: rollouts{top: 3, budget: 40000, minWorlds: 2, maxWorlds: 64}, beam: beamWidth, worlds: 1}
)

func newSearch(l level) func(seed uint64) Bot {
	return func(seed uint64) Bot { return &search{greedy: greedy{rng: engine.NewRNG(seed)}, level: l} }
}

func (b *search) Name() string { return b.name }

func (b *search) Choose(v factories.View) factories.Move {
	switch len(v.Legal) {
	case 0:
		return factories.Move{}
	case 1:
		return v.Legal[0]
	}
	return v.Legal[b.rank(v)[0].first]
}

// rank returns moves of v.Legal (by index, as first), best first, each
// with what it is worth to the bot: in the market phase its mean final
// margin over the best rival in the rollouts (only the candidates played
// out are ranked), in the work phase the judge's score of the best
// position a plan starting with it reaches. v.Legal must not be empty.
func (b *search) rank(v factories.View) []node {
	b.x.played = 0
	s := b.guess(v)
	defer b.x.put(s)
	j := newJudge(v)
	l := b.at(v.Seats)
	switch {
	case v.Phase == factories.WorkPhase:
		return b.plans(v, s, j, l)
	case v.Seats == 1:
		return b.lookahead(v, s, j, l.roll)
	}
	return b.market(v, s, j, l)
}

// plans ranks the work phase's moves by the best plan each begins, by a
// beam l.beam wide. In one world the beam search's own best comes first.
// In several (l.worlds,
// the first being s) each first move is ranked by the mean of its best
// plan's score over them: a plan that researches sees what the world's
// deck deals, and in one world the search would favour a draw only
// because that world's card happens to be good.
func (b *search) plans(v factories.View, s *factories.State, j judge, l *level) []node {
	legal := v.Legal
	if l.worlds <= 1 {
		best, byFirst := b.bestPlans(s, legal, j, l.beam)
		ranked := []node{{first: best.first, score: best.score}}
		for i, score := range byFirst {
			if i != best.first && !math.IsInf(score, -1) {
				ranked = append(ranked, node{first: i, score: score})
			}
		}
		slices.SortStableFunc(ranked[1:], func(a, b node) int { return compareDesc(a.score, b.score) })
		return ranked
	}
	totals, seen := make([]float64, len(legal)), make([]int, len(legal))
	for w := range l.worlds {
		world := s
		if w > 0 {
			world = b.guess(v)
		}
		_, byFirst := b.bestPlans(world, legal, j, l.beam)
		if w > 0 {
			b.x.put(world)
		}
		for i, score := range byFirst {
			if !math.IsInf(score, -1) {
				totals[i] += score
				seen[i]++
			}
		}
	}
	var ranked []node
	for i, n := range seen {
		if n > 0 {
			ranked = append(ranked, node{first: i, score: totals[i] / float64(n)})
		}
	}
	if len(ranked) == 0 {
		return []node{{first: 0}}
	}
	slices.SortStableFunc(ranked, func(a, b node) int { return compareDesc(a.score, b.score) })
	return ranked
}

// bestPlans is the beam search from s with the best score a plan
// starting with each of legal reaches (-Inf for a move s refuses).
func (b *search) bestPlans(s *factories.State, legal []factories.Move, j judge, width int) (node, []float64) {
	byFirst := make([]float64, len(legal))
	for i := range byFirst {
		byFirst[i] = math.Inf(-1)
	}
	b.x.byFirst = byFirst
	defer func() { b.x.byFirst = nil }()
	best := b.x.search(s, legal, j, width, beamDepth)
	b.x.put(best.state)
	return best, byFirst
}

// market ranks market moves between seats: the moves are ranked by the
// judge's score of the position each leads to (as greedy plays them), and
// the best few are each played to the end of the game in the same guessed
// worlds, every seat by the rollouts' cheap policy, and ranked by their
// mean margin over the best rival.
func (b *search) market(v factories.View, s *factories.State, j judge, l *level) []node {
	var cands []node
	for i, m := range v.Legal {
		if m.Kind == factories.Refresh {
			continue // the judge cannot see the new row, nor can a rollout choose it
		}
		next := b.x.play(s, v.Seat, m)
		if next == nil {
			continue
		}
		cands = append(cands, node{first: i, score: j.value(next) + b.marketBonus(v, m)})
		b.x.put(next)
	}
	if len(cands) == 0 {
		return []node{{first: 0}}
	}
	slices.SortStableFunc(cands, func(a, b node) int { return compareDesc(a.score, b.score) })
	// A contractor hired for each opponent is one move to the judge: keep
	// its best gift only, so the candidates differ in what they do.
	hired := map[int]bool{}
	cands = slices.DeleteFunc(cands, func(n node) bool {
		m := v.Legal[n.first]
		if m.Kind != factories.Hire {
			return false
		}
		dup := hired[m.Slot]
		hired[m.Slot] = true
		return dup
	})
	if len(cands) == 1 {
		return cands
	}
	world := func() *factories.State { return b.guess(v) }
	return b.x.rank(v.Seat, world, v.Legal, cands[:min(len(cands), l.roll.top)], l.roll)
}
