package factories

import (
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

func TestNew(t *testing.T) {
	for players := 1; players <= MaxPlayers; players++ {
		for seed := range uint64(30) {
			s, err := New(Config{Players: players, Difficulty: "hard"}, seed)
			if err != nil {
				t.Fatalf("New(%d players): %v", players, err)
			}
			checkInvariants(t, s)
			if s.Format != Format || s.Round != 1 || s.Phase != MarketPhase || s.Seed != seed || s.Turn != s.First || s.Turns != 0 {
				t.Fatalf("New: %+v", s)
			}
			for seat, p := range s.Players {
				if len(p.Hand) != 4 || p.Metal != 1 || p.Energy != 2 || p.Goods != 0 || len(p.Compound) != 0 {
					t.Errorf("seat %d starts with %+v; want 4 blueprints, 1 metal, 2 energy", seat, p)
				}
			}
			for i := range marketSize {
				if s.Market.Blueprints[i] == None || s.Market.Contractors[i] == None {
					t.Errorf("marketplace not full: %+v", s.Market)
				}
			}
			if s.Market.Tools != Tools() {
				t.Errorf("tools %v", s.Market.Tools)
			}
			if (players == 1) != (s.Machine != nil) {
				t.Errorf("%d players, machine %v", players, s.Machine)
			}
			if players > 1 && s.Config.Difficulty != "" {
				t.Errorf("difficulty %q kept in a %d-player game", s.Config.Difficulty, players)
			}
		}
	}
	// The first player is random: every seat gets it for some seed.
	firsts := map[int]bool{}
	for seed := range uint64(100) {
		s, _ := New(Config{Players: 4}, seed)
		firsts[s.First] = true
	}
	if len(firsts) != 4 {
		t.Errorf("first players over 100 seeds: %v; want all 4 seats", firsts)
	}
	// Different seeds deal different games; the same seed the same game.
	a, _ := New(Config{Players: 3}, 1)
	b, _ := New(Config{Players: 3}, 2)
	c, _ := New(Config{Players: 3}, 1)
	if marshal(t, a) == marshal(t, b) {
		t.Errorf("seeds 1 and 2 dealt the same game")
	}
	if marshal(t, a) != marshal(t, c) {
		t.Errorf("seed 1 dealt two different games")
	}
}

func TestNewRefusals(t *testing.T) {
	for _, cfg := range []Config{{Players: 0}, {Players: 6}, {Players: -1}, {Players: 1, Difficulty: "nightmare"}} {
		if _, err := New(cfg, 1); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
	s, err := New(Config{Players: 1}, 1)
	if err != nil || s.Config.Difficulty != "medium" {
		t.Errorf("solo without a difficulty: %q, %v; want medium", s.Config.Difficulty, err)
	}
}

func TestSoloSetup(t *testing.T) {
	for difficulty, size := range map[string]int{"easy": 2, "medium": 3, "hard": 4, "insane": 5} {
		for seed := range uint64(200) {
			s, err := New(Config{Players: 1, Difficulty: difficulty}, seed)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, s)
			if got := len(s.Machine.Compound); got != size {
				t.Fatalf("%s, seed %d: The Machine starts with %d cards; want %d", difficulty, seed, got, size)
			}
			for _, c := range s.Machine.Compound {
				if c.Info().Type == Monument {
					t.Fatalf("%s, seed %d: The Machine starts with the Monument %s", difficulty, seed, c.Name())
				}
			}
			// Monuments dealt to it went to the discard pile.
			for _, c := range s.Discard {
				if c.Info().Type != Monument {
					t.Fatalf("seed %d: %s in the discard pile at setup", seed, c.Name())
				}
			}
			if s.First != 0 || s.Turn != 0 {
				t.Fatalf("solo first player %d", s.First)
			}
		}
	}
}

// rngRolling finds a generator whose next five dice are roll: The Machine's
// green, red, blue, purple and yellow dice.
func rngRolling(t testing.TB, roll [5]int) engine.RNG {
	t.Helper()
	for seed := range uint64(5_000_000) {
		r := engine.NewRNG(seed)
		if [5]int{r.Die(), r.Die(), r.Die(), r.Die(), r.Die()} == roll {
			return engine.NewRNG(seed)
		}
	}
	t.Fatalf("no seed rolls %v", roll)
	return engine.RNG{}
}

// soloTable is a solo work phase ready for the player's Done, with The
// Machine owning one card of each non-Monument type plus an extra
// production card.
func soloTable(t testing.TB, roll [5]int) State {
	s := table{
		Players: 1,
		Machine: []string{Biolab, NuclearPlant, Harvester, Dojo},
		Market:  []string{Obelisk, Beacon, Megalith, Obelisk},
		Deck:    []string{Beacon, Obelisk, Obelisk, Beacon, Megalith},
	}.build(t)
	s.RNG = rngRolling(t, roll)
	return s
}

func TestMachineTurn(t *testing.T) {
	t.Run("green 1 to 4 takes that marketplace blueprint", func(t *testing.T) {
		for green := 1; green <= 4; green++ {
			s := soloTable(t, [5]int{green, 6, 6, 6, 6})
			want := s.Market.Blueprints[green-1]
			after, _ := mustApply(t, s, 0, Move{Kind: Done})
			m := after.Machine
			if len(m.Compound) != 5 || m.Compound[4] != want {
				t.Errorf("green %d: Machine compound %v; want %s added", green, names(m.Compound), want.Name())
			}
			if got := after.Market.Blueprints[green-1]; got != s.Deck[0] {
				t.Errorf("green %d: slot refilled with %s; want the deck's top", green, got.Name())
			}
			if m.Roll != [5]int{green, 6, 6, 6, 6} || m.Goods != 0 {
				t.Errorf("green %d: roll %v goods %d", green, m.Roll, m.Goods)
			}
			if after.Phase != MarketPhase || after.Round != 2 {
				t.Errorf("after The Machine's turn: phase %s round %d", after.Phase, after.Round)
			}
		}
	})
	t.Run("green on an empty slot reveals from the deck", func(t *testing.T) {
		s := soloTable(t, [5]int{3, 6, 6, 6, 6})
		s.Discard = append(s.Discard, s.Market.Blueprints[2])
		s.Market.Blueprints[2] = None
		after, _ := mustApply(t, s, 0, Move{Kind: Done})
		if got := after.Machine.Compound[4]; got != s.Deck[0] {
			t.Errorf("The Machine got %s; want the deck's top %s", got.Name(), s.Deck[0].Name())
		}
	})
	t.Run("green 5 reveals a blueprint and clears the blueprint row", func(t *testing.T) {
		s := soloTable(t, [5]int{5, 6, 6, 6, 6})
		after, events := mustApply(t, s, 0, Move{Kind: Done})
		if got := after.Machine.Compound[4]; got != s.Deck[0] {
			t.Errorf("The Machine got %s; want the deck's top", got.Name())
		}
		// The log says the row went and what came instead: no card
		// vanishes from a screen without a word.
		if !hasEvent(events, "The Machine cleared the blueprint row") || !hasEvent(events, "new in the marketplace: "+after.Market.Blueprints[0].Name()) {
			t.Errorf("events %+v", events)
		}
		if !sameCards(after.Discard, s.Market.Blueprints[:]) {
			t.Errorf("discard pile %v; want the old blueprint row", names(after.Discard))
		}
		if !slices.Equal(after.Market.Blueprints[:], s.Deck[1:5]) {
			t.Errorf("blueprint row %v; want the next four cards", names(after.Market.Blueprints[:]))
		}
		if after.Market.Contractors != s.Market.Contractors {
			t.Errorf("the contractor row changed")
		}
	})
	t.Run("green 6 reveals a blueprint and clears the contractor row", func(t *testing.T) {
		s := soloTable(t, [5]int{6, 6, 6, 6, 6})
		after, events := mustApply(t, s, 0, Move{Kind: Done})
		if !hasEvent(events, "The Machine cleared the contractor row") || !hasEvent(events, "new in the marketplace: the "+after.Market.Contractors[0].Name()) {
			t.Errorf("events %+v", events)
		}
		if got := after.Machine.Compound[4]; got != s.Deck[0] {
			t.Errorf("The Machine got %s; want the deck's top", got.Name())
		}
		if !slices.Equal(after.ContractorDiscard, s.Market.Contractors[:]) {
			t.Errorf("contractor discard %v; want the old row", after.ContractorDiscard)
		}
		if !slices.Equal(after.Market.Contractors[:], s.ContractorDeck[:4]) {
			t.Errorf("contractor row %v; want the next four", after.Market.Contractors)
		}
		if after.Market.Blueprints != s.Market.Blueprints {
			t.Errorf("the blueprint row changed")
		}
	})
	t.Run("each die at most its type's card count makes a good", func(t *testing.T) {
		// The Machine has 2 production, 1 utility, 1 training, 0 special
		// (plus the Obelisk it takes with green 1).
		cases := []struct {
			roll  [5]int
			goods int
		}{
			{[5]int{1, 1, 1, 1, 1}, 3}, // red 1<=1, blue 1<=2, purple 1>0, yellow 1<=1
			{[5]int{1, 1, 2, 6, 1}, 3},
			{[5]int{1, 2, 3, 1, 2}, 0},
			{[5]int{1, 6, 2, 6, 6}, 1}, // blue only
			{[5]int{1, 1, 6, 6, 6}, 1}, // red only
		}
		for _, tc := range cases {
			s := soloTable(t, tc.roll)
			after, events := mustApply(t, s, 0, Move{Kind: Done})
			if after.Machine.Goods != tc.goods {
				t.Errorf("roll %v: %d goods; want %d", tc.roll, after.Machine.Goods, tc.goods)
			}
			found := false
			for _, e := range events {
				found = found || (e.Kind == "machine" && strings.Contains(e.Text, "made"))
			}
			if !found {
				t.Errorf("no event for The Machine's production: %v", events)
			}
		}
	})
	t.Run("the card The Machine takes counts for its production", func(t *testing.T) {
		s := table{Players: 1, Machine: []string{Biolab, NuclearPlant, Harvester, Dojo}, Market: []string{Robot}}.build(t)
		s.RNG = rngRolling(t, [5]int{1, 6, 6, 1, 6})
		after, _ := mustApply(t, s, 0, Move{Kind: Done})
		if after.Machine.Goods != 1 {
			t.Errorf("%d goods; want 1 from the Robot (special) just taken", after.Machine.Goods)
		}
	})
}

func TestSoloGameEnd(t *testing.T) {
	t.Run("The Machine triggers the end by goods", func(t *testing.T) {
		s := soloTable(t, [5]int{1, 1, 6, 6, 6})
		s.Machine.Goods = 11
		after, _ := mustApply(t, s, 0, Move{Kind: Done})
		if after.FinalRound != 2 || after.EndCause != "has 12 goods" || after.EndSeat != -1 {
			t.Errorf("final round %d cause %q", after.FinalRound, after.EndCause)
		}
		after = playOutRound(t, after)
		if after.Phase != GameOver {
			t.Errorf("phase %s; want the game over after one more round", after.Phase)
		}
	})
	t.Run("The Machine does not trigger the end by buildings", func(t *testing.T) {
		s := soloTable(t, [5]int{1, 6, 6, 6, 6})
		for _, c := range slices.Clone(s.Deck[5:15]) {
			s.Machine.Compound = append(s.Machine.Compound, c)
			s.Deck = slices.DeleteFunc(s.Deck, func(d Card) bool { return d == c })
		}
		checkInvariants(t, s)
		after, _ := mustApply(t, s, 0, Move{Kind: Done})
		if after.FinalRound != 0 {
			t.Errorf("The Machine's %d cards triggered the end: %s", len(after.Machine.Compound), after.EndCause)
		}
	})
	t.Run("the player triggers the end by buildings", func(t *testing.T) {
		s := table{Players: 1, Seats: []seatSetup{{
			Compound: []string{Dojo, Robot, Biolab, Golem, Harvester, Foundry, Refinery, Incinerator, Motherlode},
			Hand:     []string{Obelisk, TempAgency}, Metal: 3, Energy: 1}}}.build(t)
		s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Obelisk)[0], Discard: inHand(t, s, 0, TempAgency)})
		if s.FinalRound != 2 {
			t.Errorf("final round %d; want the player's 10th building to trigger the end", s.FinalRound)
		}
	})
	t.Run("the player triggers the end by goods", func(t *testing.T) {
		s := table{Players: 1, Seats: []seatSetup{{Compound: []string{NuclearPlant}, Dice: []int{6}, Goods: 11}}}.build(t)
		s, _ = mustApply(t, s, 0, act{name: NuclearPlant, dice: []int{0}}.on(t, s))
		if s.FinalRound != 2 {
			t.Errorf("final round %d; want 12 goods to trigger the end", s.FinalRound)
		}
	})
}

func TestSoloScores(t *testing.T) {
	cases := []struct {
		name        string
		goods       int
		compound    []string
		machine     []string
		machGoods   int
		machTotal   int
		playerWins  bool
		playerTotal int
	}{
		{"a card is 1 point and a Monument 2", 3, []string{Obelisk}, []string{Biolab, Obelisk, Beacon, Dojo}, 2, 2 + 4 + 2, false, 5},
		{"a tie goes to The Machine", 7, []string{Dojo}, []string{Biolab, Dojo}, 5, 7, false, 7},
		{"the player wins with more points", 8, []string{Dojo}, []string{Biolab, Dojo}, 5, 7, true, 8},
		{"Beacons score for the player", 0, []string{Beacon, Beacon, Beacon}, []string{Megalith}, 6, 8, true, 9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := table{Players: 1, Phase: GameOver, Machine: tc.machine, Seats: []seatSetup{{Goods: tc.goods, Compound: tc.compound}}}.build(t)
			s.Machine.Goods = tc.machGoods
			scores := Scores(s)
			if len(scores) != 2 {
				t.Fatalf("%d scores; want the player and The Machine", len(scores))
			}
			me, machine := scores[0], scores[1]
			if me.Seat != 0 || me.Machine || !machine.Machine || machine.Seat != -1 {
				t.Fatalf("scores %+v", scores)
			}
			if me.Total != tc.playerTotal || machine.Total != tc.machTotal {
				t.Errorf("totals %d and %d; want %d and %d", me.Total, machine.Total, tc.playerTotal, tc.machTotal)
			}
			if me.Winner != tc.playerWins || machine.Winner == tc.playerWins {
				t.Errorf("player wins %v, machine wins %v; want player %v", me.Winner, machine.Winner, tc.playerWins)
			}
			if wantRank := map[bool]int{true: 1, false: 2}[tc.playerWins]; me.Rank != wantRank || machine.Rank != 3-wantRank {
				t.Errorf("ranks %d and %d", me.Rank, machine.Rank)
			}
		})
	}
}

func TestSoloGamesEnd(t *testing.T) {
	n := uint64(seededGames(20, 5))
	for _, difficulty := range []string{"easy", "medium", "hard", "insane"} {
		for seed := range n {
			s, _ := playRandom(t, Config{Players: 1, Difficulty: difficulty}, seed, nil)
			scores := Scores(s)
			if len(scores) != 2 || scores[0].Winner == scores[1].Winner {
				t.Fatalf("%s seed %d: scores %+v; want exactly one winner", difficulty, seed, scores)
			}
		}
	}
}

// hasEvent reports whether an event's text starts with prefix.
func hasEvent(events []Event, prefix string) bool {
	return slices.ContainsFunc(events, func(e Event) bool { return strings.HasPrefix(e.Text, prefix) })
}
