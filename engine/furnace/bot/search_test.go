package bot

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// TestSearchPlaysLegalMoves plays search in every size and setting
// through JSON, as a room does, each move checked against its view's
// legal moves (playJSON), over many seeds and seats.
func TestSearchPlaysLegalMoves(t *testing.T) {
	games := 3
	if testing.Short() || raceEnabled {
		games = 1
	}
	options := []string{``, `{"capitalists":"on"}`, `{"capitalists":"on","chain":"on","arthur":"paired"}`, `{"chain":"on","rounds":"3"}`}
	for players := 2; players <= 4; players++ {
		for oi, opts := range options {
			t.Run(fmt.Sprintf("%dp-%d", players, oi), func(t *testing.T) {
				t.Parallel()
				// One search seat, a different one in each setting,
				// keeps the test quick under the race detector.
				names := make([]string, players)
				for i := range names {
					names[i] = []string{"greedy", "random"}[i%2]
				}
				names[oi%players] = "search"
				for g := range games {
					playJSON(t, names, opts, uint64(5000*players+10*oi+g))
				}
			})
		}
	}
}

// TestSearchSeesOnlyTheView: search chooses from the view alone. In every
// position of a few games, the same position with another deck order and
// another generator (all the state hides) gets the same move, and so does
// the view after a JSON round trip, as a room sends it.
func TestSearchSeesOnlyTheView(t *testing.T) {
	games := uint64(2)
	if testing.Short() || raceEnabled {
		games = 1
	}
	for seed := range games {
		s, err := furnace.New(furnace.Config{Players: 2 + int(seed)%3, Capitalists: seed%2 == 1}, 40+seed)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; s.Phase != furnace.GameOver; n++ {
			seat := furnace.StatusOf(s).Acting[0]
			other := s.Clone()
			r := engine.NewRNG(uint64(n) + 1)
			r.Shuffle(len(other.Deck), func(i, j int) { other.Deck[i], other.Deck[j] = other.Deck[j], other.Deck[i] })
			other.RNG, other.Seed = engine.NewRNG(r.Uint64()), r.Uint64()
			v := furnace.ViewOf(s, seat)
			var sent furnace.View
			data, _ := json.Marshal(v)
			if err := json.Unmarshal(data, &sent); err != nil {
				t.Fatal(err)
			}
			m := newSearch(uint64(n)).Choose(v)
			for what, w := range map[string]furnace.View{"hidden state changed": furnace.ViewOf(other, seat), "view sent as JSON": sent} {
				if got := newSearch(uint64(n)).Choose(w); got != m {
					t.Fatalf("game %d move %d: %+v, but %+v with the %s", seed, n, m, got, what)
				}
			}
			if err := s.Play(seat, m); err != nil {
				t.Fatalf("game %d move %d: %+v: %v", seed, n, m, err)
			}
		}
	}
}

// TestPricesAreGreedys: the rollouts play each seat as greedy bids, so
// the table of prices must pick greedy's own placement in every auction
// position of a few greedy games.
func TestPricesAreGreedys(t *testing.T) {
	checked := 0
	for seed := range uint64(6) {
		cfg := furnace.Config{Players: 2 + int(seed)%3, Capitalists: seed >= 3, Arthur: furnace.ArthurPaired}
		s, err := furnace.New(cfg, 70+seed)
		if err != nil {
			t.Fatal(err)
		}
		g := newGreedy(seed)
		for s.Phase != furnace.GameOver {
			seat := furnace.StatusOf(s).Acting[0]
			v := furnace.ViewOf(s, seat)
			m := g.Choose(v)
			if s.Phase == furnace.AuctionPhase && len(v.Legal) > 1 {
				b := &search{legal: v.Legal}
				b.prices.fill(&v)
				if got := b.rivalBid(&s, seat, seat, nil); got != m {
					t.Fatalf("seed %d: prices chose %+v, greedy %+v", seed, got, m)
				}
				checked++
			}
			if err := s.Play(seat, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d auction positions checked", checked)
	}
}

// TestSearchBeatsGreedy: a small, fixed set of 2-player games, which
// always comes out the same; search wins about 78% of them (docs/bots.md
// has the full measure), the test asks for 60%.
func TestSearchBeatsGreedy(t *testing.T) {
	games := 40
	if testing.Short() || raceEnabled {
		games = 10
	}
	res, err := Simulate(t.Context(), Config{Bots: []string{"search", "greedy"}, Games: games, Seed: 77})
	if err != nil {
		t.Fatal(err)
	}
	if rate := res.Seats[0].WinRate; rate < 0.6 {
		t.Errorf("search beat greedy in %.0f%% of %d games; want at least 60%%", 100*rate, games)
	}
	if !slices.Contains(Names(), "search") {
		t.Error("search is not among the bots' names")
	}
}
