package furnace

import (
	"slices"
	"testing"
)

// produce resolves the card with the given id with the given counts.
func produce(t testing.TB, id string, times ...int) Move {
	m := Move{Kind: Produce, Card: card(t, id)}
	copy(m.Times[:], times)
	return m
}

func upgrade(t testing.TB, id string) Move { return Move{Kind: Upgrade, Card: card(t, id)} }

// TestProductionRules: each card once, in any order; processing is
// optional and paid from what the seat holds, the lines above included;
// each refusal says why.
func TestProductionRules(t *testing.T) {
	s := table{Seats: []seatSetup{{Cards: []string{"mine-04", "oil-07"}, Upgraded: []string{"oil-09"}, Goods: Goods{Coal: 5, Iron: 3}}}}.build(t)
	mustRefuse(t, s, 0, produce(t, "mine-05"), "you do not own mine-05")
	mustRefuse(t, s, 0, produce(t, "oil-07", 3), "is done at most 2 times")
	mustRefuse(t, s, 0, produce(t, "oil-07", -1), "cannot be negative")
	mustRefuse(t, s, 0, produce(t, "mine-04", 1), "mine-04 has 0 lines to process")
	// oil-09 upgraded: 2 coal -> 1 oil x2, then 1 coal + 1 iron -> 4 money
	// x3, both from the same 5 coal.
	mustRefuse(t, s, 0, produce(t, "oil-09", 2, 2), "1 coal + 1 iron → 4 money ×3 twice needs 2 coal and 2 iron; you would have 1 coal and 3 iron")
	mustRefuse(t, s, 1, produce(t, "oil-09", 1), "you do not own oil-09")
	next, events := mustApply(t, s, 0, produce(t, "oil-09", 2, 1))
	if got := next.Players[0].Goods; got != (Goods{Iron: 2, Oil: 2, Money: 4}) {
		t.Errorf("after oil-09: %+v", got)
	}
	if events[0].Text != "resolved oil-09: 4 coal into 2 oil; 1 coal and 1 iron into 4 money" {
		t.Errorf("event %q", events[0].Text)
	}
	mustRefuse(t, next, 0, produce(t, "oil-09"), "oil-09 is resolved already this round")
	// Any order in the base game: oil-07 before mine-04.
	next, _ = mustApply(t, next, 0, produce(t, "oil-07", 2))
	next, _ = mustApply(t, next, 0, produce(t, "mine-04"))
	if got := next.Players[0].Goods; got != (Goods{Coal: 2, Oil: 4, Money: 4}) {
		t.Errorf("after all three: %+v", got)
	}
	if next.Players[0].Done || next.Phase != ProductionPhase {
		t.Errorf("resolving every card is not being done")
	}
}

// TestDoneGivesExtractions: extraction is mandatory, so done resolves the
// cards not resolved yet with their extractions and no processing; a done
// seat can do nothing more, and the last one ends the round for all.
func TestDoneGivesExtractions(t *testing.T) {
	s := table{Seats: []seatSetup{{Cards: []string{"mine-04", "mine-01"}, Upgraded: []string{"metal-12"}, Goods: Goods{Coal: 2, Oil: 1}}}}.build(t)
	s, events := mustApply(t, s, 0, Move{Kind: Done})
	// start +1 token; mine-04 +2 coal; mine-01 processing skipped;
	// metal-12 upgraded: its processing skipped, +1 iron +2 coal.
	if got := s.Players[0].Goods; got != (Goods{Coal: 6, Iron: 1, Oil: 1, Tokens: 1}) {
		t.Errorf("after done: %+v", got)
	}
	if events[0].Text != "finished production; the cards not resolved gave 4 coal, 1 iron and 1 upgrade token" {
		t.Errorf("event %q", events[0].Text)
	}
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{1}) {
		t.Errorf("acting %v", got)
	}
	mustRefuse(t, s, 0, produce(t, "mine-04"), "you are done with production this round")
	mustRefuse(t, s, 0, Move{Kind: Done}, "you are done")
	if len(Legal(s, 0)) != 0 {
		t.Errorf("a done seat has moves: %v", Legal(s, 0))
	}
	s, _ = mustApply(t, s, 1, Move{Kind: Done})
	if s.Phase != AuctionPhase || s.Round != 2 || s.Players[0].Done || s.Players[0].Cards[1].Used {
		t.Errorf("after the last done: phase %s, round %d, %+v", s.Phase, s.Round, s.Players[0])
	}
}

// TestUpgrades: the start card's last line upgrades any number of
// companies, each for 1 coal and 1 upgrade token, while it is the card
// being resolved. A company upgraded before its use this phase gives both
// lines; one upgraded after gives its new line only from the next round.
func TestUpgrades(t *testing.T) {
	s := table{Seats: []seatSetup{{Start: "start-3", Cards: []string{"mine-04", "mine-09", "metal-03"}, Goods: Goods{Coal: 2, Iron: 1}}}}.build(t)
	mustRefuse(t, s, 0, upgrade(t, "mine-04"), "resolve the start card first")
	s, _ = mustApply(t, s, 0, produce(t, "mine-09"))                     // used before its upgrade
	mustRefuse(t, s, 0, upgrade(t, "mine-04"), "resolve the start card") // mine-09 is the open card
	s, _ = mustApply(t, s, 0, produce(t, "start-3"))                     // +1 token, no conversion
	mustRefuse(t, s, 0, upgrade(t, "start-3"), "start cards cannot be upgraded")
	mustRefuse(t, s, 0, upgrade(t, "mine-05"), "you do not own mine-05")
	s, events := mustApply(t, s, 0, upgrade(t, "mine-09"))
	if events[0].Text != "upgraded mine-09 for 1 coal and 1 upgrade token (its new line works from next round)" {
		t.Errorf("event %q", events[0].Text)
	}
	mustRefuse(t, s, 0, upgrade(t, "mine-09"), "mine-09 is upgraded already")
	// In the last round the log says the new line comes too late.
	last := s.Clone()
	last.Round = last.Config.Rounds
	last.Players[0].Goods.Tokens = 1
	if _, events := mustApply(t, last, 0, upgrade(t, "metal-03")); events[0].Text != "upgraded metal-03 for 1 coal and 1 upgrade token" {
		t.Errorf("last round, upgrade before use: event %q", events[0].Text)
	}
	last.Players[0].Cards[3].Used = true // metal-03 resolved
	if _, events := mustApply(t, last, 0, upgrade(t, "metal-03")); events[0].Text != "upgraded metal-03 for 1 coal and 1 upgrade token (resolved already, and this is the last round: its new line will not work)" {
		t.Errorf("last round, upgrade after use: event %q", events[0].Text)
	}
	// No token left: the next upgrade is refused.
	mustRefuse(t, s, 0, upgrade(t, "mine-04"), "an upgrade costs 1 coal and 1 upgrade token; you have 1 coal")
	s.Players[0].Goods.Tokens = 1
	s, _ = mustApply(t, s, 0, upgrade(t, "mine-04"))
	if got := s.Players[0].Goods; got != (Goods{Iron: 1}) {
		t.Errorf("after two upgrades: %+v", got)
	}
	// mine-04 upgraded before use: +2 coal and +3 coal now. mine-09 was
	// used: it does not resolve again.
	s, _ = mustApply(t, s, 0, produce(t, "mine-04"))
	if got := s.Players[0].Goods; got != (Goods{Coal: 5, Iron: 1}) {
		t.Errorf("mine-04 upgraded before use gave %+v", got)
	}
	mustRefuse(t, s, 0, produce(t, "mine-09"), "resolved already")
	// Resolving another card closed the upgrade line.
	s.Players[0].Goods.Tokens = 1
	mustRefuse(t, s, 0, upgrade(t, "metal-03"), "resolve the start card first")
	// Next round mine-09 gives both lines.
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	s = toProduction(t, s)
	before := s.Players[0].Goods
	s, _ = mustApply(t, s, 0, produce(t, "mine-09", 1))
	if got := s.Players[0].Goods.Minus(before); got != (Goods{Coal: 3, Iron: -1, Money: 2}) {
		t.Errorf("mine-09 a round after its upgrade gave %+v", got)
	}
}

// toProduction finishes the round under way with every seat done and
// every auction choice the first legal one, and plays to the next
// production phase.
func toProduction(t *testing.T, s State) State {
	t.Helper()
	for round := s.Round; s.Phase != ProductionPhase || s.Round == round; {
		seat := StatusOf(s).Acting[0]
		m := Legal(s, seat)[0]
		if s.Phase == ProductionPhase {
			m = Move{Kind: Done}
		}
		s, _ = mustApply(t, s, seat, m)
	}
	return s
}

// TestChainVariant: cards won are put into the seat's row where it
// chooses, older cards keeping their order, before it produces; the row
// resolves strictly left to right, the start card included.
func TestChainVariant(t *testing.T) {
	s := table{Config: Config{Chain: true}, Seats: []seatSetup{{Start: "start-2", Cards: []string{"mine-04", "mine-10"},
		New: []string{"metal-10", "oil-05"}}}}.build(t)
	mustRefuse(t, s, 0, produce(t, "start-2"), "first put metal-10 in your chain")
	mustRefuse(t, s, 0, Move{Kind: Done}, "first put metal-10 in your chain")
	mustRefuse(t, s, 0, Move{Kind: Place, Card: card(t, "mine-04"), At: 0}, "mine-04 is not a card you won this round")
	mustRefuse(t, s, 0, Move{Kind: Place, Card: card(t, "metal-10"), At: 4}, "positions 0 to 3, not 4")
	mustRefuse(t, s, 0, Move{Kind: Place, Card: card(t, "metal-10"), At: -1}, "not -1")
	if got := len(Legal(s, 0)); got != 2*4 {
		t.Errorf("%d legal placements; want 2 cards x 4 positions", got)
	}
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Card: card(t, "oil-05"), At: 0})
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Card: card(t, "metal-10"), At: 2})
	var row []string
	for _, o := range s.Players[0].Cards {
		row = append(row, o.Card.ID())
	}
	if !slices.Equal(row, []string{"oil-05", "start-2", "metal-10", "mine-04", "mine-10"}) {
		t.Fatalf("chain %v", row)
	}
	mustRefuse(t, s, 0, produce(t, "mine-04"), "your chain resolves left to right: oil-05 is next")
	if l := Legal(s, 0); len(l) != 2 || l[0].Card != card(t, "oil-05") || l[1].Kind != Done {
		t.Errorf("legal %v; want oil-05 and done", l)
	}
	s, _ = mustApply(t, s, 0, produce(t, "oil-05"))
	s, _ = mustApply(t, s, 0, produce(t, "start-2"))
	// The start card's line is open, but there is no coal to upgrade with.
	mustRefuse(t, s, 0, upgrade(t, "mine-04"), "an upgrade costs 1 coal and 1 upgrade token; you have 1 upgrade token")
	s, _ = mustApply(t, s, 0, produce(t, "metal-10"))
	mustRefuse(t, s, 0, produce(t, "mine-10"), "mine-04 is next")
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	// done resolved mine-04 (+2 coal) and mine-10 (no processing).
	if got := s.Players[0].Goods; got != (Goods{Coal: 4, Iron: 1, Tokens: 1}) {
		t.Errorf("goods %+v", got)
	}
	base := table{Seats: []seatSetup{{}}}.build(t)
	mustRefuse(t, base, 0, Move{Kind: Place, Card: card(t, "mine-04")}, "only in the production-chain variant")
}

// TestChainUpgradeAhead: in the chain, upgrading a card further right
// before the row reaches it gives both its lines this round.
func TestChainUpgradeAhead(t *testing.T) {
	s := table{Config: Config{Chain: true}, Seats: []seatSetup{{Cards: []string{"mine-04"}, Goods: Goods{Coal: 1}}}}.build(t)
	s, _ = mustApply(t, s, 0, produce(t, s.Players[0].Cards[0].Card.ID()))
	s, _ = mustApply(t, s, 0, upgrade(t, "mine-04"))
	s, _ = mustApply(t, s, 0, produce(t, "mine-04"))
	if got := s.Players[0].Goods.Coal; got != 5 {
		t.Errorf("coal %d; want 5 (both lines)", got)
	}
}
