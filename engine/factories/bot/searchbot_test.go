package bot

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// TestSearchSeesOnlyTheView: search chooses from its seat's view alone.
// In positions of a few games, the same position with everything the
// seat may not see scrambled (the other hands and the deck dealt anew from
// the cards among them, the contractor deck reshuffled, another generator
// for the dice to come) gets the same moves from bots of several seeds,
// so the same distribution of moves, and so does the view after a JSON
// round trip, as a room sends it.
func TestSearchSeesOnlyTheView(t *testing.T) {
	positions, names, sizes := 4, []string{"search", "search-quick"}, []int{1, 2, 3}
	switch {
	case raceEnabled:
		// What may race is the bots side by side, and a full search
		// under the race detector takes seconds a move.
		positions, names, sizes = 1, names[1:], sizes[:2]
	case testing.Short():
		positions = 2
	}
	for _, name := range names {
		for _, players := range sizes {
			t.Run(fmt.Sprintf("%s-%dp", name, players), func(t *testing.T) {
				t.Parallel()
				checkSeesOnlyTheView(t, name, players, positions)
			})
		}
	}
}

// checkSeesOnlyTheView plays a greedy game and checks the named search
// bot's choices in its first positions of each phase with a choice to
// make (see TestSearchSeesOnlyTheView).
func checkSeesOnlyTheView(t *testing.T, name string, players, positions int) {
	s, err := factories.New(factories.Config{Players: players, Difficulty: "hard"}, uint64(60+players))
	if err != nil {
		t.Fatal(err)
	}
	g := newGreedy(3)
	checked := map[factories.Phase]int{}
	for n := 0; s.Phase != factories.GameOver; n++ {
		seat := factories.StatusOf(s).Acting[0]
		v := factories.ViewOf(s, seat)
		if len(v.Legal) > 1 && checked[v.Phase] < positions && n%3 == 0 {
			checked[v.Phase]++
			other := scrambled(s, seat, uint64(n))
			if slices.Equal(other.Deck, s.Deck) {
				t.Fatalf("move %d: the scrambled deck is the real one", n)
			}
			var sent factories.View
			data, _ := json.Marshal(v)
			if err := json.Unmarshal(data, &sent); err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(2) {
				want := choose(t, name, seed, v)
				for what, w := range map[string]factories.View{"hidden cards scrambled": factories.ViewOf(other, seat), "view sent as JSON": sent} {
					if got := choose(t, name, seed, w); !sameMove(got, want) {
						t.Fatalf("move %d, bot seed %d: %s, but %s with the %s", n, seed, want.Describe(v), got.Describe(v), what)
					}
				}
			}
		}
		if err := s.Play(seat, g.Choose(v), nil); err != nil {
			t.Fatal(err)
		}
	}
	if checked[factories.MarketPhase] == 0 || checked[factories.WorkPhase] == 0 {
		t.Errorf("positions checked: %v; want both phases", checked)
	}
}

// choose is the move the named bot, seeded, makes in v.
func choose(t *testing.T, name string, seed uint64, v factories.View) factories.Move {
	t.Helper()
	b, err := New(name, seed)
	if err != nil {
		t.Fatal(err)
	}
	return b.Choose(v)
}

// scrambled is s with what seat may not see dealt anew: the other seats'
// hands and the deck, from the cards among them, each hand keeping its
// size; the contractor deck reshuffled; the generator reseeded.
func scrambled(s factories.State, seat int, seed uint64) factories.State {
	c := s.Clone()
	r := engine.NewRNG(seed + 1)
	hidden := slices.Clone(c.Deck)
	for i := range c.Players {
		if i != seat {
			hidden = append(hidden, c.Players[i].Hand...)
		}
	}
	r.Shuffle(len(hidden), func(i, j int) { hidden[i], hidden[j] = hidden[j], hidden[i] })
	for i := range c.Players {
		if i != seat {
			n := len(c.Players[i].Hand)
			c.Players[i].Hand, hidden = slices.Clone(hidden[:n]), hidden[n:]
		}
	}
	c.Deck = hidden
	r.Shuffle(len(c.ContractorDeck), func(i, j int) {
		c.ContractorDeck[i], c.ContractorDeck[j] = c.ContractorDeck[j], c.ContractorDeck[i]
	})
	c.RNG = engine.NewRNG(r.Uint64())
	return c
}

// TestSearchLevelBySeats: search plays 2-player games with the level its
// 2-player figure was measured with, and with 3 or more seats spends a
// larger market budget (300,000 moves at 3 and 4, on which the 4-player
// figure was measured) and changes nothing else, since a rollout there
// plays every rival's turns and the same budget buys fewer worlds.
func TestSearchLevelBySeats(t *testing.T) {
	if l := searchLevel.at(2); l != &searchLevel || l.roll.budget != 150000 || l.roll.top != 5 {
		t.Errorf("2 seats: level %+v, want the between-seats level of 150,000 moves and 5 candidates", *l)
	}
	if l := searchLevel.at(1); l != searchLevel.solo {
		t.Errorf("1 seat: level %+v, want the solo level", *l)
	}
	for seats := 3; seats <= 5; seats++ {
		l := *searchLevel.at(seats)
		if seats < 5 && l.roll.budget != 300000 {
			t.Errorf("%d seats: budget %d, want 300,000", seats, l.roll.budget)
		}
		if l.roll.budget <= searchLevel.roll.budget {
			t.Errorf("%d seats: budget %d, want more than 2 seats' %d", seats, l.roll.budget, searchLevel.roll.budget)
		}
		two := searchLevel
		l.roll.budget = two.roll.budget
		if l.name != two.name || l.roll != two.roll || l.beam != two.beam || l.worlds != two.worlds || l.solo != nil || l.crowd != nil {
			t.Errorf("%d seats: level %+v differs from 2 seats' %+v in more than its budget", seats, l, two)
		}
	}
}

// TestSearchTakesTheObelisk: in the last round of a solo game, where
// only the Obelisk scores, both search bots take it, and rank it first.
func TestSearchTakesTheObelisk(t *testing.T) {
	v := factories.ViewOf(finalRound(t), 0)
	levels := []level{searchLevel, quickLevel}
	if raceEnabled {
		levels = levels[1:] // a full search takes seconds under the race detector
	}
	for _, l := range levels {
		for seed := range uint64(2) {
			b := newSearch(l)(seed).(*search)
			ranked := b.rank(v)
			if m := v.Legal[ranked[0].first]; m.Kind != factories.Take || m.Slot != 2 {
				t.Errorf("%s, seed %d: ranked %s first, want Take Obelisk", l.name, seed, m.Describe(v))
			}
			for i := 1; i < len(ranked); i++ {
				if ranked[i].score > ranked[i-1].score {
					t.Errorf("%s, seed %d: move %d ranked below a worse one", l.name, seed, i)
				}
			}
		}
	}
}

// BenchmarkSearchMove times search's decisions, every kind, in the
// positions of greedy games of 2 and 5 seats and of solo games, and
// reports p50, p99 and the slowest, in wall time and in the deciding
// thread's CPU time (see benchmarkBot). The goals are in CPU time on one
// core: -cpu 1, and -benchtime Nx with N the positions it reports, so
// every position is decided once:
//
//	go test -run '^$' -bench 'SearchMove/search-2p' -benchtime 543x -cpu 1 ./engine/factories/bot/
//	go test -run '^$' -bench 'SearchMove/search-5p' -benchtime 1238x -cpu 1 ./engine/factories/bot/
func BenchmarkSearchMove(b *testing.B) {
	for _, name := range []string{"search", "search-quick"} {
		for _, players := range []int{1, 2, 5} {
			b.Run(fmt.Sprintf("%s-%dp", name, players), func(b *testing.B) {
				bot, err := New(name, 9)
				if err != nil {
					b.Fatal(err)
				}
				benchmarkBot(b, bot, players, "")
			})
		}
	}
}

// BenchmarkSearchMarket times search's market decisions alone, where its
// rollouts are: the slow tail of BenchmarkSearchMove.
func BenchmarkSearchMarket(b *testing.B) {
	for _, players := range []int{1, 2, 5} {
		b.Run(fmt.Sprintf("%dp", players), func(b *testing.B) {
			bot, _ := New("search", 9)
			benchmarkBot(b, bot, players, factories.MarketPhase)
		})
	}
}

// BenchmarkSearchWork times search's solo work decisions alone: their
// beam (256 wide, in four worlds) must stay under the market's tail.
func BenchmarkSearchWork(b *testing.B) {
	bot, _ := New("search", 9)
	benchmarkBot(b, bot, 1, factories.WorkPhase)
}

// TestSearchBeatsGreedy: search wins clearly more 2-player games against
// greedy than it loses, and by more points, in 25 fixed games. A search
// budget counts moves played, never time, so the match is the same on
// any machine under any load: it cannot flake, and a change that
// weakens search (or breaks it into greedy's play, which wins half)
// fails it. Run with -short or -race it is skipped: it takes about a
// minute of CPU time. docs/bots.md measures strength on 400 games.
func TestSearchBeatsGreedy(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("25 games of search take about a minute of CPU time")
	}
	const games = 25
	res, err := Simulate(t.Context(), Config{Bots: []string{"search", "greedy"}, Games: games, Seed: 8201})
	if err != nil {
		t.Fatal(err)
	}
	search, greedy := res.Seats[0], res.Seats[1]
	if search.Wins < 15 || search.AvgScore-greedy.AvgScore < 1 {
		t.Errorf("search won %d of %d games against greedy, %.2f points to %.2f a game; want at least 15 wins and a margin of 1",
			search.Wins, games, search.AvgScore, greedy.AvgScore)
	}
}
