package bot

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
)

// finalRound is a solo game in its last market phase: the seat holds a
// Golem (a hammer card to pay with) and 3 metal and 1 energy, just what an
// Obelisk costs, and the Obelisk lies in the marketplace's third slot
// among cards that score nothing in one round.
func finalRound(t *testing.T) factories.State {
	t.Helper()
	s, err := factories.New(factories.Config{Players: 1, Difficulty: "medium"}, 11)
	if err != nil {
		t.Fatal(err)
	}
	place := func(name string) factories.Card {
		c := factories.CardsNamed(name)[0]
		s.Deck = slices.DeleteFunc(s.Deck, func(d factories.Card) bool { return d == c })
		s.Players[0].Hand = slices.DeleteFunc(s.Players[0].Hand, func(d factories.Card) bool { return d == c })
		s.Machine.Compound = slices.DeleteFunc(s.Machine.Compound, func(d factories.Card) bool { return d == c })
		for i, d := range s.Market.Blueprints {
			if d == c {
				s.Market.Blueprints[i] = s.Deck[0]
				s.Deck = s.Deck[1:]
			}
		}
		return c
	}
	market := [4]factories.Card{place(factories.FitnessCenter), place(factories.Dojo), place(factories.Obelisk), place(factories.Gymnasium)}
	s.Deck = append(s.Deck, s.Market.Blueprints[:]...)
	s.Market.Blueprints = market
	p := &s.Players[0]
	p.Hand, p.Metal, p.Energy = []factories.Card{place(factories.Golem)}, 3, 1
	s.Round, s.FinalRound = 9, 9
	return s
}

func TestRolloutPlaysTheGameOut(t *testing.T) {
	s := finalRound(t)
	before := factories.ViewOf(s, 0)
	// rollout plays in place: each plays its own copy.
	var x searcher
	rolloutOf := func(s factories.State) float64 {
		c := s.Clone()
		return x.rollout(&c, 0)
	}
	a, b := rolloutOf(s), rolloutOf(s)
	if a != b {
		t.Errorf("two rollouts of one world gave %v and %v", a, b)
	}
	if !reflect.DeepEqual(factories.ViewOf(s, 0), before) {
		t.Error("rollout changed the state it was given")
	}
	// The cheap policy takes and builds the Obelisk, so the margin is the
	// scores now plus its 2 prestige, less what The Machine gains in its
	// last turn: a card (2 points for a monument) and at most 4 goods.
	now := factories.Scores(s)
	base := float64(now[0].Total - now[1].Total + 2)
	if lo, hi := base-6, base+rollWin; a < lo || a > hi {
		t.Errorf("rollout = %v, want within [%v, %v]", a, lo, hi)
	}
	if m := x.bestByJudge(&s, factories.Legal(s, 0), stateJudge(&s, 0)); m.Kind != factories.Take || m.Slot != 2 {
		t.Errorf("the rollout policy took %+v, want the Obelisk in slot 2", m)
	}
}

func TestRolloutOfAFinishedGameIsItsMargin(t *testing.T) {
	s, err := factories.New(factories.Config{Players: 1, Difficulty: "medium"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	r := newRandom(5)
	for s.Phase != factories.GameOver {
		if s, _, err = factories.Apply(s, 0, r.Choose(factories.ViewOf(s, 0))); err != nil {
			t.Fatal(err)
		}
	}
	sc := factories.Scores(s)
	want := float64(sc[0].Total - sc[1].Total)
	if sc[0].Winner {
		want += rollWin
	}
	var x searcher
	if got := x.rollout(&s, 0); got != want {
		t.Errorf("rollout of a finished game = %v, want %v (scores %+v)", got, want, sc)
	}
}

// TestSoloMarketPlaysMovesOut checks the whole solo market decision on a
// position the rollouts settle: every world gains the Obelisk's prestige.
func TestSoloMarketPlaysMovesOut(t *testing.T) {
	s := finalRound(t)
	v := factories.ViewOf(s, 0)
	for seed := range uint64(3) {
		if m := newGreedy(seed).Choose(v); m.Kind != factories.Take || m.Slot != 2 {
			t.Errorf("seed %d: greedy chose %s, want Take Obelisk", seed, m.Describe(v))
		}
	}
	// Given only the three useless takes, the rollouts still choose one of
	// them, and the same one for the same worlds.
	var cands []node
	for i, m := range v.Legal {
		if m.Kind == factories.Take && m.Slot != 2 {
			cands = append(cands, node{first: i})
		}
	}
	g := newGreedy(1).(*greedy)
	worlds := []*factories.State{g.guess(v), g.guess(v)}
	choose := func() int {
		n := 0
		world := func() *factories.State {
			n++
			return g.x.copyOf(worlds[n%2])
		}
		g.x.played = 0
		return g.x.rank(0, world, v.Legal, cands, greedyRollouts)[0].first
	}
	a, b := choose(), choose()
	if a != b || !slices.ContainsFunc(cands, func(n node) bool { return n.first == a }) {
		t.Errorf("rank chose %d then %d, want the same one of %v", a, b, cands)
	}
}

// TestSoloWorkPhaseBuildsTheObelisk plays greedy's solo work phase in the
// last round after taking the Obelisk: with 3 metal and 1 energy, 2 prestige
// for the Obelisk is the most the seat can score, whatever research draws.
// (Playing close plans out in guessed worlds once built a Foundry here, for
// 1: in each world the plan's search knows what research will draw.)
func TestSoloWorkPhaseBuildsTheObelisk(t *testing.T) {
	start := finalRound(t)
	start, _, err := factories.Apply(start, 0, factories.Move{Kind: factories.Take, Slot: 2})
	if err != nil || start.Phase != factories.WorkPhase {
		t.Fatalf("taking the Obelisk: phase %s, %v", start.Phase, err)
	}
	for seed := range uint64(3) {
		s, b := start, newGreedy(seed)
		for s.Phase == factories.WorkPhase {
			v := factories.ViewOf(s, 0)
			m := b.Choose(v)
			if !slices.ContainsFunc(v.Legal, func(l factories.Move) bool { return sameMove(l, m) }) {
				t.Fatalf("seed %d: %s is not legal", seed, m.Describe(v))
			}
			if s, _, err = factories.Apply(s, 0, m); err != nil {
				t.Fatal(err)
			}
		}
		if !owned(&s.Players[0], factories.Obelisk) {
			t.Errorf("seed %d: the round ended without the Obelisk built", seed)
		}
	}
}

// TestJudgeCountsPlansInHand holds the hand scoring to its design: a
// blueprint worth building counts more with a partner of its tool to pay
// with, and in solo play only the best one counts as a building to come.
// It is the last round, when an Obelisk's 2 prestige outweigh its cost:
// resources are then worth little.
func TestJudgeCountsPlansInHand(t *testing.T) {
	obelisks := factories.CardsNamed(factories.Obelisk)
	obelisk, second := obelisks[0], obelisks[1]
	robot, dojo := factories.CardsNamed(factories.Robot)[0], factories.CardsNamed(factories.Dojo)[0]
	for _, seats := range []int{1, 2} {
		j := judgeAt(0, seats, factories.MarketPhase, 9, 9, 0.9, nil)
		paired := &factories.Player{Hand: []factories.Card{obelisk, robot}}
		lone := &factories.Player{Hand: []factories.Card{obelisk, dojo}}
		worth := func(p *factories.Player, c factories.Card) float64 {
			h, tools := holdingOf(p.Compound), toolsOf(p.Hand)
			return j.blueprint(&h, &tools, c)
		}
		if p, l := worth(paired, obelisk), worth(lone, obelisk); p <= l || l <= j.card {
			t.Errorf("%d seats: Obelisk with a hammer partner = %v, with none = %v, a plain card = %v; want partner > none > card", seats, p, l, j.card)
		}
		two := &factories.Player{Hand: []factories.Card{obelisk, second, robot}}
		plan := worth(two, obelisk)
		want := 2*plan + j.card // both Obelisks are plans
		if seats == 1 {
			want = plan + 2*j.card // only the best is
		}
		h := holdingOf(two.Compound)
		if got := j.hand(two.Hand, &h); math.Abs(got-want) > 1e-9 {
			t.Errorf("%d seats: hand of two Obelisks and a Robot = %v, want %v", seats, got, want)
		}
	}
}

// TestJudgeValuesConvertersInSolo: against The Machine the buildings that
// take no dice count for more, since what they make comes on top of the
// dice's work: an Incinerator outweighs a Manufactory there, not between
// seats, where the per-round table holds as it is.
func TestJudgeValuesConvertersInSolo(t *testing.T) {
	solo := judgeAt(0, 1, factories.MarketPhase, 3, 0, 0.2, nil)
	seats := judgeAt(0, 2, factories.MarketPhase, 3, 0, 0.2, nil)
	if s, m := solo.made(named(factories.Incinerator)), solo.made(named(factories.Manufactory)); s <= m {
		t.Errorf("solo: Incinerator makes %v a round, Manufactory %v; want the Incinerator ahead", s, m)
	}
	if s, m := seats.made(named(factories.Incinerator)), seats.made(named(factories.Manufactory)); s >= m {
		t.Errorf("2 seats: Incinerator makes %v a round, Manufactory %v; want the table's order", s, m)
	}
	for _, name := range []string{factories.Refinery, factories.BatteryFactory, factories.RecyclingPlant} {
		if solo.made(named(name)) <= seats.made(named(name)) {
			t.Errorf("%s makes %v a round in solo, %v between seats; want more in solo", name, solo.made(named(name)), seats.made(named(name)))
		}
	}
}

// named is the fact of the first card of a design.
func named(name string) *fact { return factOf(factories.CardsNamed(name)[0]) }

// TestRaceRanksEveryCandidate: successive halving returns every candidate
// once, the Obelisk first in the position the rollouts settle, the
// scores in the ranking's order (a dropped move never above one that
// outlasted it), and the same ranking for the same worlds.
func TestRaceRanksEveryCandidate(t *testing.T) {
	s := finalRound(t)
	v := factories.ViewOf(s, 0)
	var cands []node
	for i, m := range v.Legal {
		if m.Kind != factories.Refresh {
			cands = append(cands, node{first: i})
		}
	}
	if len(cands) < 3 {
		t.Fatalf("%d candidates, want 3 or more to race", len(cands))
	}
	g := newGreedy(1).(*greedy)
	worlds := []*factories.State{g.guess(v), g.guess(v), g.guess(v)}
	lim := rollouts{budget: 20000, minWorlds: 2, maxWorlds: 12, race: true}
	race := func() []node {
		n := 0
		world := func() *factories.State {
			n++
			return g.x.copyOf(worlds[n%len(worlds)])
		}
		g.x.played = 0
		return g.x.rank(0, world, v.Legal, cands, lim)
	}
	a, b := race(), race()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("raced %v then %v in the same worlds", a, b)
	}
	if m := v.Legal[a[0].first]; m.Kind != factories.Take || m.Slot != 2 {
		t.Errorf("raced %s first, want Take Obelisk", m.Describe(v))
	}
	var firsts []int
	for i, n := range a {
		firsts = append(firsts, n.first)
		if i > 0 && n.score > a[i-1].score {
			t.Errorf("move %d scored %v, above %v of the move ranked before it", i, n.score, a[i-1].score)
		}
	}
	slices.Sort(firsts)
	var want []int
	for _, c := range cands {
		want = append(want, c.first)
	}
	if !slices.Equal(firsts, want) {
		t.Errorf("raced moves %v, want each of %v once", firsts, want)
	}
}
