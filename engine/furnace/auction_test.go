package furnace

import (
	"slices"
	"strings"
	"testing"
)

// bid is a placement of the disc v on the card with the given id.
func bid(t testing.TB, id string, v int) Move {
	return Move{Kind: Bid, Card: card(t, id), Disc: v}
}

// TestSetup: New deals each seat a start card and its resources, players +
// 4 cards to the market from a 32-card deck, every disc in hand, and the
// first player to bid; the Agent only in 2-player games.
func TestSetup(t *testing.T) {
	for players := MinPlayers; players <= MaxPlayers; players++ {
		s, err := New(Config{Players: players}, uint64(players))
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, s)
		if len(s.Market) != players+4 || len(s.Deck) != 32-players-4 {
			t.Errorf("%d players: %d cards on the market, %d in the deck", players, len(s.Market), len(s.Deck))
		}
		if s.Phase != AuctionPhase || s.Round != 1 || s.Turn != s.First || s.Config.Rounds != 4 {
			t.Errorf("%d players: phase %s, round %d, turn %d, first %d, %d rounds", players, s.Phase, s.Round, s.Turn, s.First, s.Config.Rounds)
		}
		for i, p := range s.Players {
			if p.Discs != allDiscs || p.Capitalist != "" || p.Neutral || len(p.Cards) != 1 || !p.Cards[0].Card.IsStart() {
				t.Errorf("seat %d: %+v", i, p)
			}
		}
		if (s.Agent != nil) != (players == 2) || (s.Agent != nil && s.Agent.Discs != allDiscs) {
			t.Errorf("%d players: agent %+v", players, s.Agent)
		}
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Players: 1}, "2 to 4 players"},
		{Config{Players: 5}, "2 to 4 players"},
		{Config{Players: 3, Rounds: 5}, "not 5"},
		{Config{Players: 3, Capitalists: true, Arthur: "later"}, `not "later"`},
	} {
		if _, err := New(tc.cfg, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v; want %q", tc.cfg, err, tc.want)
		}
	}
	s, _ := New(Config{Players: 3, Capitalists: true}, 5)
	caps := map[Capitalist]bool{}
	for _, p := range s.Players {
		caps[p.Capitalist] = true
		if p.Neutral != (p.Capitalist == Arthur) {
			t.Errorf("%s holds the neutral disc: %v", p.Capitalist, p.Neutral)
		}
	}
	if len(caps) != 3 || caps[""] || s.Config.Arthur != ArthurAlone {
		t.Errorf("capitalists dealt: %v, Arthur %q", caps, s.Config.Arthur)
	}
}

// TestPlacementRules: no two discs of one value on a card, never two of
// your own, only your own discs, in your turn, on the market; each refusal
// says why.
func TestPlacementRules(t *testing.T) {
	s := table{Players: 3, Phase: AuctionPhase, Market: []string{"oil-01", "oil-02", "oil-03"}}.build(t)
	s, _ = mustApply(t, s, 0, bid(t, "oil-01", 3))
	if s.Turn != 1 || s.Players[0].Discs.Has(3) || s.Market[0].Discs[0] != (Disc{Seat: 0, Value: 3}) {
		t.Fatalf("after the bid: turn %d, discs %v, market %+v", s.Turn, s.Players[0].Discs, s.Market[0])
	}
	mustRefuse(t, s, 1, bid(t, "oil-01", 3), "oil-01 already has a 3 on it")
	mustRefuse(t, s, 0, bid(t, "oil-02", 2), "not your turn")
	mustRefuse(t, s, 1, bid(t, "mine-01", 2), "mine-01 is not up for auction")
	mustRefuse(t, s, 1, bid(t, "oil-01", 0), "discs are 1 to 4")
	mustRefuse(t, s, 1, bid(t, "oil-01", 5), "discs are 1 to 4")
	mustRefuse(t, s, 1, Move{Kind: Bid, Card: card(t, "oil-01"), Disc: 2, Neutral: true}, "only Arthur")
	mustRefuse(t, s, 1, Move{Kind: Bid, Card: card(t, "oil-01"), Disc: 2, Extra: card(t, "oil-02")}, "only Arthur")
	mustRefuse(t, s, 1, Move{Kind: Bid, Card: card(t, "oil-01"), Disc: 2, Times: Times{1}}, "a bid move has no times")
	mustRefuse(t, s, 1, Move{Kind: Compensate}, "only while the auction is resolved")
	mustRefuse(t, s, 1, Move{Kind: Produce, Card: s.Players[1].Cards[0].Card}, "not the production phase")
	mustRefuse(t, s, 1, Move{Kind: "pass"}, `no move "pass"`)
	s, _ = mustApply(t, s, 1, bid(t, "oil-01", 4))
	s, _ = mustApply(t, s, 2, bid(t, "oil-02", 4))
	mustRefuse(t, s, 0, bid(t, "oil-01", 1), "you already have a disc on oil-01")
	mustRefuse(t, s, 0, bid(t, "oil-02", 3), "you have no 3 left")
	// Every legal bid of seat 0 is a card without its disc and without
	// the value.
	for _, m := range Legal(s, 0) {
		i := s.lot(m.Card)
		for _, d := range s.Market[i].Discs {
			if d.Seat == 0 || d.Value == m.Disc {
				t.Errorf("legal bid %+v breaks the rules on %+v", m, s.Market[i].Discs)
			}
		}
	}
}

// TestNoLegalPlacement: a seat whose remaining discs fit nowhere is passed
// over and places no more this auction (an automatic skip, not a move);
// the auction ends when nobody can place.
func TestNoLegalPlacement(t *testing.T) {
	s := table{Players: 3, Phase: AuctionPhase, Market: []string{"oil-01", "oil-02"}}.build(t)
	// Seat 1 keeps only its 4; both cards get a 4 from others.
	s.Players[1].Discs = 1 << 4
	s.Players[2].Discs = 1<<1 | 1<<4
	s, _ = mustApply(t, s, 0, bid(t, "oil-01", 4))
	if s.Turn != 1 {
		t.Fatalf("turn %d", s.Turn)
	}
	s, _ = mustApply(t, s, 1, bid(t, "oil-02", 4))
	s, events := mustApply(t, s, 2, bid(t, "oil-01", 1))
	// Seat 0 still has 1, 2, 3: it may bid on oil-02 only.
	if s.Turn != 0 || len(Legal(s, 0)) != 3 {
		t.Fatalf("turn %d, legal %v", s.Turn, Legal(s, 0))
	}
	s, events = mustApply(t, s, 0, bid(t, "oil-02", 1))
	// Seat 1 has no discs left; seat 2's 4 fits neither card (both have a
	// 4); seat 0's 2 and 3 fit neither (its discs are on both). Nobody can
	// place: the auction ends and is resolved.
	if !s.Players[0].Out || !s.Players[1].Out || !s.Players[2].Out || s.Phase != ProductionPhase {
		t.Fatalf("phase %s, out %v %v %v", s.Phase, s.Players[0].Out, s.Players[1].Out, s.Players[2].Out)
	}
	var out []int
	for _, e := range events {
		if e.Kind == "out" {
			out = append(out, e.Seat)
			if e.Text != "can place no more discs this auction: none fits anywhere" {
				t.Errorf("event %q", e.Text)
			}
		}
	}
	if !slices.Equal(out, []int{2, 0}) {
		t.Errorf("seats %v were told they place no more; want 2 then 0 (seat 1 has no discs)", out)
	}
}

// TestAuctionOrder: seats place in turn clockwise from the first player;
// the auction ends when no disc can be placed, the cards are resolved
// left to right and production begins; the first player marker passes
// left each round and the new market is dealt from a reshuffled deck.
func TestAuctionOrder(t *testing.T) {
	s, err := New(Config{Players: 3}, 11)
	if err != nil {
		t.Fatal(err)
	}
	first := s.First
	var order []int
	for s.Phase == AuctionPhase {
		order = append(order, s.Turn)
		s, _ = mustApply(t, s, s.Turn, Legal(s, s.Turn)[0])
	}
	for i, seat := range order[:3] {
		if seat != (first+i)%3 {
			t.Fatalf("placement order %v from first player %d", order, first)
		}
	}
	if s.Phase == ResolvePhase {
		for s.Phase == ResolvePhase {
			seat := StatusOf(s).Acting[0]
			s, _ = mustApply(t, s, seat, Legal(s, seat)[0])
		}
	}
	if s.Phase != ProductionPhase || len(s.Market) != 0 {
		t.Fatalf("phase %s, market %v", s.Phase, s.Market)
	}
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("production acting %v", got)
	}
	deckTop := slices.Clone(s.Deck[:7])
	for seat := range 3 {
		s, _ = mustApply(t, s, seat, Move{Kind: Done})
	}
	if s.Round != 2 || s.Phase != AuctionPhase || s.First != (first+1)%3 || s.Turn != s.First {
		t.Fatalf("round %d, phase %s, first %d (was %d), turn %d", s.Round, s.Phase, s.First, first, s.Turn)
	}
	var dealt []Card
	for _, l := range s.Market {
		dealt = append(dealt, l.Card)
	}
	if slices.Equal(dealt, deckTop) {
		t.Errorf("round 2 dealt the deck's old top %v: not reshuffled", deckTop)
	}
}

// TestResolutionLeftToRight: cards resolve from the left; a resource won
// in compensation on one card pays a compensation further right; a card
// with no disc goes back to the box; the winner gets no compensation.
func TestResolutionLeftToRight(t *testing.T) {
	// mine-04 (+2 coal) then oil-03 (2 coal -> 1 oil) then metal-01
	// (no discs).
	s := table{Players: 3, Phase: AuctionPhase, Market: []string{"mine-04", "oil-03", "metal-01"}}.build(t)
	s.Players[0].Discs = 1 << 2
	s.Players[1].Bidder = Bidder{Out: true}
	s.Players[2].Bidder = Bidder{Out: true}
	s.Market[0].Discs = []Disc{{Seat: 1, Value: 3}}
	s.Market[1].Discs = []Disc{{Seat: 0, Value: 1}, {Seat: 2, Value: 4}}
	s, events := mustApply(t, s, 0, bid(t, "mine-04", 2))
	// mine-04: seat 0 gets 2x2 coal; seat 1 wins it. oil-03: seat 0 may
	// process once, paid with that coal.
	if s.Phase != ResolvePhase || s.Market[0].Card != card(t, "oil-03") || s.Players[0].Owed != 1 {
		t.Fatalf("phase %s, market %v, owed %d; events %v", s.Phase, s.Market, s.Players[0].Owed, events)
	}
	if s.Players[0].Goods != (Goods{Coal: 4}) || s.Players[1].owned(card(t, "mine-04")) < 0 || s.Players[1].Goods != (Goods{}) {
		t.Fatalf("after mine-04: %+v / %+v", s.Players[0], s.Players[1])
	}
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{0}) {
		t.Fatalf("acting %v while seat 0 chooses", got)
	}
	mustRefuse(t, s, 1, Move{Kind: Compensate}, "no compensation to take on oil-03")
	mustRefuse(t, s, 0, Move{Kind: Compensate, Times: Times{-1}}, "cannot be negative")
	mustRefuse(t, s, 0, Move{Kind: Compensate, Times: Times{1, 1}}, "compensation takes one count")
	s, _ = mustApply(t, s, 0, Move{Kind: Compensate, Times: Times{1}})
	if s.Players[0].Goods != (Goods{Coal: 2, Oil: 1}) || s.Players[2].owned(card(t, "oil-03")) < 0 {
		t.Fatalf("after oil-03: %+v, seat 2's cards %v", s.Players[0].Goods, s.Players[2].Cards)
	}
	if s.Phase != ProductionPhase || !slices.Contains(s.Removed, card(t, "metal-01")) {
		t.Fatalf("phase %s, removed %v", s.Phase, s.Removed)
	}
}

// TestCompensationSeveralSeats: seats owed a processing on one card choose
// at once; the resolution waits for the last. A seat that cannot pay once
// is passed over with a word in the log.
func TestCompensationSeveralSeats(t *testing.T) {
	s := table{Players: 4, Phase: AuctionPhase, Market: []string{"oil-09"},
		Seats: []seatSetup{{Goods: Goods{Oil: 1}}, {Goods: Goods{Oil: 5}}, {}, {}}}.build(t)
	for i := range s.Players {
		s.Players[i].Bidder = Bidder{Out: true}
	}
	s.Players[3].Bidder = Bidder{Discs: 1 << 4}
	s.Turn = 3
	s.Market[0].Discs = []Disc{{Seat: 0, Value: 3}, {Seat: 1, Value: 2}, {Seat: 2, Value: 1}}
	s, events := mustApply(t, s, 3, bid(t, "oil-09", 4))
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{0, 1}) {
		t.Fatalf("acting %v", got)
	}
	if !strings.Contains(string(mustJSON(events)), "cannot pay 1 oil for the compensation of oil-09") {
		t.Errorf("events %v", events)
	}
	// Seat 0 has 1 oil: once at most, though its disc allows 3.
	if got := len(Legal(s, 0)); got != 2 {
		t.Errorf("seat 0 has %d choices", got)
	}
	mustRefuse(t, s, 0, Move{Kind: Compensate, Times: Times{2}}, "needs 2 oil; you have 1 oil")
	s, _ = mustApply(t, s, 1, Move{Kind: Compensate, Times: Times{2}})
	if s.Phase != ResolvePhase || !slices.Equal(StatusOf(s).Acting, []int{0}) {
		t.Fatalf("phase %s, acting %v", s.Phase, StatusOf(s).Acting)
	}
	s, _ = mustApply(t, s, 0, Move{Kind: Compensate, Times: Times{1}})
	if s.Phase != ProductionPhase || s.Players[0].Goods != (Goods{Iron: 3}) || s.Players[1].Goods != (Goods{Oil: 3, Iron: 6}) {
		t.Fatalf("phase %s, goods %+v %+v", s.Phase, s.Players[0].Goods, s.Players[1].Goods)
	}
}
