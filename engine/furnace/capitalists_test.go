package furnace

import (
	"slices"
	"strings"
	"testing"
)

// auctionOf builds a 3-player auction of the given cards with seat 0 as
// the capitalist and seat 0 to place.
func auctionOf(t testing.TB, c Capitalist, timing ArthurTiming, market ...string) State {
	t.Helper()
	return table{Players: 3, Phase: AuctionPhase, Config: Config{Capitalists: true, Arthur: timing},
		Seats: []seatSetup{{Capitalist: c}, {}, {}}, Market: market}.build(t)
}

// outExcept leaves only the seats named able to place discs.
func outExcept(s *State, seats ...int) {
	for i := range s.Players {
		if !slices.Contains(seats, i) {
			s.Players[i].Bidder = Bidder{Out: true}
			s.Players[i].Neutral = false
		}
	}
}

// TestMonica: she places ignoring both placement rules (a value already on
// the card, a second disc of her own), others still may not match her
// values (so a tie comes only from her matching them), and she loses ties
// for the highest disc; her lower discs are
// compensated even on a card she wins (FAQ F01).
func TestMonica(t *testing.T) {
	s := auctionOf(t, Monica, "", "mine-04", "mine-09")
	s, _ = mustApply(t, s, 0, bid(t, "mine-09", 3))
	mustRefuse(t, s, 1, bid(t, "mine-09", 3), "mine-09 already has a 3 on it")
	s, _ = mustApply(t, s, 1, bid(t, "mine-04", 3))
	s, _ = mustApply(t, s, 2, bid(t, "mine-04", 1))
	s, _ = mustApply(t, s, 0, bid(t, "mine-04", 1)) // a value already there
	s, _ = mustApply(t, s, 1, bid(t, "mine-09", 4))
	s, _ = mustApply(t, s, 2, bid(t, "mine-09", 2))
	s, _ = mustApply(t, s, 0, bid(t, "mine-09", 4)) // her second disc there, tying seat 1's 4
	// Seats 1 and 2 have discs on both cards: only Monica can place.
	if s.Turn != 0 || !s.Players[1].Out || !s.Players[2].Out {
		t.Fatalf("turn %d, out %v %v", s.Turn, s.Players[1].Out, s.Players[2].Out)
	}
	s, _ = mustApply(t, s, 0, bid(t, "mine-04", 2))
	if s.Phase != ProductionPhase {
		t.Fatalf("phase %s", s.Phase)
	}
	// mine-04 (+2 coal a disc unit) goes to seat 1's 3: seat 2's 1 gets 2
	// coal, Monica's 1 and 2 get 2 + 4. mine-09: Monica's 4 ties seat 1's
	// and loses; her 3 and 4 get 6 + 8, seat 2's 2 gets 4.
	if s.Players[1].owned(card(t, "mine-04")) < 0 || s.Players[1].owned(card(t, "mine-09")) < 0 {
		t.Errorf("seat 1's cards: %v", s.Players[1].Cards)
	}
	for seat, coal := range []int{20, 0, 6} {
		if got := s.Players[seat].Goods.Coal; got != coal {
			t.Errorf("seat %d has %d coal; want %d", seat, got, coal)
		}
	}

	// She wins with her highest disc and her lower one is compensated.
	s = auctionOf(t, Monica, "", "mine-04")
	s.Market[0].Discs = []Disc{{Seat: 0, Value: 1}, {Seat: 1, Value: 2}}
	s.Players[0].Discs = 1 << 4
	outExcept(&s, 0)
	s, _ = mustApply(t, s, 0, bid(t, "mine-04", 4))
	if s.Players[0].owned(card(t, "mine-04")) < 0 || s.Players[0].Goods.Coal != 2 || s.Players[1].Goods.Coal != 4 {
		t.Errorf("Monica's win: cards %v, coal %d / %d", s.Players[0].Cards, s.Players[0].Goods.Coal, s.Players[1].Goods.Coal)
	}
}

// TestArthurAlone: with the base timing Arthur's neutral 2 is a fifth disc,
// placed on a turn of its own under the usual rules, and it counts as his.
func TestArthurAlone(t *testing.T) {
	s := auctionOf(t, Arthur, ArthurAlone, "mine-04", "mine-09", "metal-05")
	neutral := func(id string) Move { return Move{Kind: Bid, Card: card(t, id), Disc: 2, Neutral: true} }
	mustRefuse(t, s, 0, Move{Kind: Bid, Card: card(t, "mine-04"), Disc: 3, Neutral: true}, "the neutral disc is a 2")
	mustRefuse(t, s, 0, Move{Kind: Bid, Card: card(t, "mine-04"), Disc: 3, Extra: card(t, "mine-09")}, "on a turn of its own")
	mustRefuse(t, s, 0, Move{Kind: Bid, Card: card(t, "mine-04"), Disc: 2, Neutral: true, Extra: card(t, "mine-09")}, "goes on one card")
	if got := len(Legal(s, 0)); got != 3*4+3 {
		t.Errorf("%d placements; want 12 discs and 3 neutral", got)
	}
	s, events := mustApply(t, s, 0, neutral("mine-04"))
	if events[0].Text != "placed the neutral 2 on mine-04" || s.Players[0].Neutral || s.Players[0].Discs != allDiscs {
		t.Errorf("event %v, neutral %v, discs %v", events, s.Players[0].Neutral, s.Players[0].Discs)
	}
	mustRefuse(t, s, 1, bid(t, "mine-04", 2), "mine-04 already has a 2 on it")
	s, _ = mustApply(t, s, 1, bid(t, "mine-09", 1))
	s, _ = mustApply(t, s, 2, bid(t, "mine-09", 2))
	mustRefuse(t, s, 0, bid(t, "mine-04", 4), "you already have a disc on mine-04")
	mustRefuse(t, s, 0, neutral("metal-05"), "you have placed the neutral disc already")
	// Arthur wins mine-04 with the neutral 2 alone.
	outExcept(&s, 0)
	s.Players[0].Discs = 1 << 1
	s, _ = mustApply(t, s, 0, bid(t, "metal-05", 1))
	if s.Players[0].owned(card(t, "mine-04")) < 0 {
		t.Errorf("Arthur did not win mine-04 with the neutral disc: %v", s.Players[0].Cards)
	}
}

// TestArthurPaired: with the updated timing the neutral 2 goes with another
// of his discs in one placement, on a different card, or not at all.
func TestArthurPaired(t *testing.T) {
	s := auctionOf(t, Arthur, ArthurPaired, "mine-04", "mine-09", "metal-05")
	s.Market[2].Discs = []Disc{{Seat: 1, Value: 2}}
	s.Players[1].Discs &^= 1 << 2
	pair := func(id string, v int, extra string) Move {
		return Move{Kind: Bid, Card: card(t, id), Disc: v, Extra: card(t, extra)}
	}
	mustRefuse(t, s, 0, pair("mine-04", 3, "mine-04"), "on a different card")
	mustRefuse(t, s, 0, pair("mine-04", 3, "metal-05"), "metal-05 already has a 2 on it")
	mustRefuse(t, s, 0, Move{Kind: Bid, Card: card(t, "mine-04"), Disc: 2, Neutral: true}, "name its card as extra")
	// Placements: 4 discs on mine-04 and on mine-09, 3 on metal-05 (its
	// 2 is taken): 11. Each also comes with the neutral on another card
	// that takes a 2: from mine-04 or mine-09 the other one (4 + 4), from
	// metal-05 either of them (3 x 2). 25 in all.
	if got := len(Legal(s, 0)); got != 25 {
		t.Errorf("%d placements; want 25", got)
	}
	s, events := mustApply(t, s, 0, pair("mine-04", 4, "mine-09"))
	if events[0].Text != "placed a 4 on mine-04 and the neutral 2 on mine-09" || s.Players[0].Neutral || s.Placed != 1 {
		t.Errorf("event %v, neutral %v, placed %d", events, s.Players[0].Neutral, s.Placed)
	}
	mustRefuse(t, s, 1, pair("mine-04", 1, "mine-09"), "only Arthur")
	outExcept(&s, 0)
	s.Turn = 0
	mustRefuse(t, s, 0, pair("metal-05", 1, "mine-04"), "you have placed the neutral disc already")
	// Once his own discs are down he is out, even with the neutral in hand.
	s = auctionOf(t, Arthur, ArthurPaired, "mine-04")
	outExcept(&s, 0)
	s.Players[0].Neutral = true
	s.Players[0].Discs = 1 << 1
	s, _ = mustApply(t, s, 0, bid(t, "mine-04", 1))
	if s.Phase == AuctionPhase || !s.Players[0].Neutral {
		t.Errorf("phase %s with only the neutral disc left (held: %v)", s.Phase, s.Players[0].Neutral)
	}
}

// TestEvariste: once a production phase he may pay 2 coal to resolve a
// used card again, with its current side (upgraded in between: both
// lines); in the chain the repeat may break the order.
func TestEvariste(t *testing.T) {
	s := table{Config: Config{Capitalists: true, Chain: true}, Seats: []seatSetup{{Capitalist: Evariste, Start: "start-3",
		Cards: []string{"mine-04", "metal-05"}, Goods: Goods{Coal: 2, Tokens: 1}}, {}}}.build(t)
	again := func(id string) Move { m := produce(t, id); m.Again = true; return m }
	mustRefuse(t, s, 0, again("mine-04"), "mine-04 is not resolved yet this round")
	s, _ = mustApply(t, s, 0, produce(t, "start-3"))
	s, _ = mustApply(t, s, 0, produce(t, "mine-04")) // coal 4, token 2
	s, events := mustApply(t, s, 0, again("start-3"))
	if events[0].Text != "paid 2 coal to resolve start-3 again: +1 upgrade token; skipped 3 coal → 4 money" {
		t.Errorf("event %q", events[0].Text)
	}
	// The start card is open again: upgrade mine-04, which was used, and
	// metal-05, which is next in the chain.
	s, _ = mustApply(t, s, 0, upgrade(t, "mine-04"))
	mustRefuse(t, s, 0, again("mine-04"), "you have used a card again this round already")
	s, _ = mustApply(t, s, 0, produce(t, "metal-05"))
	if got := s.Players[0].Goods; got != (Goods{Coal: 3, Tokens: 2}) {
		t.Errorf("goods %+v", got)
	}
	// The upgraded side on a repeat: a fresh round.
	s = table{Config: Config{Capitalists: true}, Seats: []seatSetup{{Capitalist: Evariste, Cards: []string{"mine-04"}, Goods: Goods{Coal: 3, Tokens: 1}}, {}}}.build(t)
	start := s.Players[0].Cards[0].Card.ID()
	s, _ = mustApply(t, s, 0, produce(t, "mine-04")) // +2: 5 coal
	s, _ = mustApply(t, s, 0, produce(t, start, 0))
	s, _ = mustApply(t, s, 0, upgrade(t, "mine-04")) // 4 coal
	s, _ = mustApply(t, s, 0, again("mine-04"))      // -2 +2 +3: 7 coal
	if got := s.Players[0].Goods.Coal; got != 7 {
		t.Errorf("coal %d after the upgraded repeat; want 7", got)
	}
	// Others may not; nor without 2 coal.
	o := table{Seats: []seatSetup{{Cards: []string{"mine-04"}, Goods: Goods{Coal: 5}}}}.build(t)
	o, _ = mustApply(t, o, 0, produce(t, "mine-04"))
	mustRefuse(t, o, 0, again("mine-04"), "only Évariste")
	p := table{Config: Config{Capitalists: true}, Seats: []seatSetup{{Capitalist: Evariste, Cards: []string{"mine-09"}, Goods: Goods{Coal: 1}}}}.build(t)
	p, _ = mustApply(t, p, 0, produce(t, "mine-09"))
	mustRefuse(t, p, 0, again("mine-09"), "costs 2 coal; you have 1")
}

// TestTimur: he upgrades with iron in place of an upgrade token, but only
// once his tokens are gone; the coal is still paid.
func TestTimur(t *testing.T) {
	s := table{Config: Config{Capitalists: true}, Seats: []seatSetup{{Capitalist: Timur, Start: "start-4",
		Cards: []string{"mine-04", "mine-05", "mine-09"}, Goods: Goods{Coal: 3, Iron: 1}}}}.build(t)
	s, _ = mustApply(t, s, 0, produce(t, "start-4")) // +1 token
	s, events := mustApply(t, s, 0, upgrade(t, "mine-04"))
	if events[0].Text != "upgraded mine-04 for 1 coal and 1 upgrade token" {
		t.Errorf("event %q", events[0].Text)
	}
	s, events = mustApply(t, s, 0, upgrade(t, "mine-05"))
	if events[0].Text != "upgraded mine-05 for 1 coal and 1 iron" || s.Players[0].Goods != (Goods{Coal: 1}) {
		t.Errorf("event %q, goods %+v", events[0].Text, s.Players[0].Goods)
	}
	mustRefuse(t, s, 0, upgrade(t, "mine-09"), "(or 1 iron once your tokens are gone); you have 1 coal")
	s.Players[0].Goods = Goods{Iron: 1}
	mustRefuse(t, s, 0, upgrade(t, "mine-09"), "you have 1 iron")
}

// TestHenry: his discs count 1 higher for compensation (both kinds, see
// TestEveryCompensation) but not for winning a card, and the log says
// where the +1 comes from.
func TestHenry(t *testing.T) {
	s := auctionOf(t, Henry, "", "mine-04")
	s.Market[0].Discs = []Disc{{Seat: 1, Value: 4}}
	outExcept(&s, 0)
	s.Players[0].Discs = 1 << 3
	s, events := mustApply(t, s, 0, bid(t, "mine-04", 3))
	if s.Players[1].owned(card(t, "mine-04")) < 0 || s.Players[0].Goods.Coal != 8 {
		t.Errorf("Henry's 3 against a 4: seat 1's cards %v, Henry's coal %d", s.Players[1].Cards, s.Players[0].Goods.Coal)
	}
	if !strings.Contains(string(mustJSON(events)), "received 8 coal in compensation for mine-04 (disc 3, +1 Henry)") {
		t.Errorf("events %v", events)
	}
}
