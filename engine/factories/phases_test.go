package factories

import (
	"slices"
	"strings"
	"testing"
)

func TestMarketTurnOrderAndWorkPhaseStart(t *testing.T) {
	s := table{Players: 3, Phase: MarketPhase, Market: []string{Obelisk, Dojo, Robot, Golem}, Deck: []string{Biolab, Foundry, Refinery}}.build(t)
	s.First, s.Turn = 1, 1
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{1}) {
		t.Fatalf("acting %v; want the first player, seat 1", got)
	}
	mustRefuse(t, s, 0, Move{Kind: Take, Slot: 0}, "it is not your turn in the market phase")
	mustRefuse(t, s, 2, Move{Kind: Take, Slot: 0}, "it is not your turn in the market phase")
	if Legal(s, 0) != nil || Legal(s, 2) != nil {
		t.Errorf("seats out of turn have legal moves")
	}

	s, _ = mustApply(t, s, 1, Move{Kind: Take, Slot: 2})
	if got := names(s.Players[1].Hand); !slices.Equal(got, []string{Robot}) {
		t.Errorf("seat 1's hand %v; want Robot", got)
	}
	if got := names(s.Market.Blueprints[:]); !slices.Equal(got, []string{Obelisk, Dojo, Biolab, Golem}) {
		t.Errorf("market %v; want the taken slot refilled from the deck", got)
	}
	if s.Turn != 2 || s.Phase != MarketPhase {
		t.Fatalf("turn %d phase %s; want seat 2 next", s.Turn, s.Phase)
	}
	s, _ = mustApply(t, s, 2, Move{Kind: Take, Slot: 0})
	if s.Turn != 0 {
		t.Fatalf("turn %d; want seat 0 after seat 2 (clockwise)", s.Turn)
	}
	before := s
	s, _ = mustApply(t, s, 0, Move{Kind: Take, Slot: 0})
	if s.Phase != WorkPhase {
		t.Fatalf("phase %s after every seat drafted; want work", s.Phase)
	}
	r := before.RNG
	for seat, p := range s.Players {
		want := []int{r.Die(), r.Die(), r.Die(), r.Die()}
		if got := diceValues(p); !slices.Equal(got, want) {
			t.Errorf("seat %d rolled %v; want %v from the state's RNG", seat, got, want)
		}
	}
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("acting %v in the work phase; want every seat", got)
	}
	mustRefuse(t, s, 0, Move{Kind: Take, Slot: 0}, "not a work phase move")
	mustRefuse(t, s, 0, Move{Kind: Pass}, "not a work phase move")
	mustRefuse(t, s, 0, Move{Kind: "jump"}, "not a work phase move")
	mustRefuse(t, before, 0, Move{Kind: Done}, "not a market phase move")
	mustRefuse(t, before, 0, Move{Kind: Take, Slot: 9}, "numbered 0 to 3")
	mustRefuse(t, before, 7, Move{Kind: Take}, "seat 7 is not in this game")
	mustRefuse(t, before, -1, Move{Kind: Take}, "seat -1 is not in this game")
}

func TestTakeFromAnEmptySlot(t *testing.T) {
	s := table{Phase: MarketPhase, Market: []string{Obelisk}}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Take, Slot: 1}, "slot is empty")
}

func TestRefresh(t *testing.T) {
	s := table{Phase: MarketPhase, Market: []string{Obelisk, Dojo, Robot, Golem},
		Deck: []string{Biolab, Foundry, Refinery, Warehouse, Beacon}, Seats: []seatSetup{{Metal: 1, Energy: 1}, {Metal: 1}}}.build(t)
	old := s.Market.Blueprints
	s, _ = mustApply(t, s, 0, Move{Kind: Refresh, Row: BlueprintRow, Pay: "metal"})
	if got := names(s.Market.Blueprints[:]); !slices.Equal(got, []string{Biolab, Foundry, Refinery, Warehouse}) {
		t.Errorf("market after the refresh %v; want the next four from the deck", got)
	}
	if !sameCards(s.Discard, old[:]) {
		t.Errorf("discard pile %v; want the old row", names(s.Discard))
	}
	if s.Players[0].Metal != 0 || s.Turn != 0 || !s.Refreshed {
		t.Errorf("after the refresh: metal %d, turn %d, refreshed %v; want 1 metal paid and the turn going on", s.Players[0].Metal, s.Turn, s.Refreshed)
	}
	mustRefuse(t, s, 0, Move{Kind: Refresh, Row: ContractorRow, Pay: "energy"}, "already refreshed")
	for _, l := range Legal(s, 0) {
		if l.Kind == Refresh {
			t.Errorf("a second refresh is legal: %+v", l)
		}
	}
	s, _ = mustApply(t, s, 0, Move{Kind: Take, Slot: 0})
	if s.Refreshed || s.Turn != 1 {
		t.Fatalf("refreshed %v turn %d; want a fresh turn for seat 1", s.Refreshed, s.Turn)
	}
	// The next seat may refresh the contractors.
	oldHires := s.Market.Contractors
	deck := s.ContractorDeck
	mustRefuse(t, s, 1, Move{Kind: Refresh, Row: ContractorRow, Pay: "energy"}, "costs 1 energy and you have none")
	s, _ = mustApply(t, s, 1, Move{Kind: Refresh, Row: ContractorRow, Pay: "metal"})
	if !slices.Equal(s.Market.Contractors[:], deck[:4]) || !slices.Equal(s.ContractorDiscard, oldHires[:]) {
		t.Errorf("contractor row %v discard %v; want the next four and the old row discarded", s.Market.Contractors, s.ContractorDiscard)
	}
	mustRefuse(t, s, 1, Move{Kind: Refresh, Row: BlueprintRow, Pay: "metal"}, "already refreshed")

	s = table{Phase: MarketPhase, Market: []string{Obelisk}, Seats: []seatSetup{{Metal: 0, Energy: 0}}}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Refresh, Row: BlueprintRow, Pay: "metal"}, "costs 1 metal and you have none")
	mustRefuse(t, s, 0, Move{Kind: Refresh, Row: BlueprintRow, Pay: "energy"}, "costs 1 energy and you have none")
	s.Players[0].Metal = 1
	mustRefuse(t, s, 0, Move{Kind: Refresh, Row: BlueprintRow, Pay: "goods"}, "with metal or energy")
	mustRefuse(t, s, 0, Move{Kind: Refresh, Row: "both", Pay: "metal"}, "blueprints or the contractors")
	mustRefuse(t, s, 0, Move{Kind: Refresh, Pay: "metal"}, "blueprints or the contractors")
}

func TestPassOnlyWhenNothingIsPossible(t *testing.T) {
	row := []string{Engineer, Foreman, HiredHands, Investor}
	s := table{Phase: MarketPhase, Contractors: row, Market: []string{Obelisk},
		Seats: []seatSetup{{Hand: []string{Dojo, Robot}}}}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Pass}, "cannot pass")
	s.Discard = append(s.Discard, s.Market.Blueprints[0])
	s.Market.Blueprints[0] = None
	// No blueprint to take; Engineer and Hired Hands match the hand but cost
	// energy the seat lacks; nothing matches Foreman's or Investor's tool.
	legal := Legal(s, 0)
	if len(legal) != 1 || legal[0].Kind != Pass {
		t.Fatalf("legal %+v; want Pass alone", legal)
	}
	s, _ = mustApply(t, s, 0, Move{Kind: Pass})
	if s.Turn != 1 || len(s.Players[0].Hand) != 2 {
		t.Errorf("after passing: turn %d, hand %d", s.Turn, len(s.Players[0].Hand))
	}
	// A seat able to hire cannot pass.
	s = table{Phase: MarketPhase, Contractors: row, Seats: []seatSetup{{Hand: []string{Gymnasium}}}}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Pass}, "cannot pass")
	s = table{Phase: MarketPhase, Contractors: row, Seats: []seatSetup{{Hand: []string{Robot}, Energy: 3}}}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Pass}, "cannot pass")
}

func TestWorkPhaseIsSimultaneous(t *testing.T) {
	s := table{Seats: []seatSetup{{Dice: []int{1, 2, 3, 4}}, {Dice: []int{6, 5, 4, 3}}}}.build(t)
	s, _ = mustApply(t, s, 1, Move{Kind: Place, Dice: []int{0}, Action: Mine})
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Research})
	s, _ = mustApply(t, s, 1, Move{Kind: Place, Dice: []int{1}, Action: Research})
	// Shared draws happen in apply order: seat 0 got the deck's first card.
	if s.Players[0].Hand[0] != Card(0) || s.Players[1].Hand[0] != Card(1) {
		t.Errorf("draws %v and %v; want the deck's cards in the order the moves were applied", s.Players[0].Hand, s.Players[1].Hand)
	}
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	if got := StatusOf(s).Acting; !slices.Equal(got, []int{1}) {
		t.Errorf("acting %v; want only seat 1 once seat 0 is done", got)
	}
	if Legal(s, 0) != nil {
		t.Errorf("a done seat has legal moves")
	}
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{1}, Action: Research}, "you are done")
	mustRefuse(t, s, 0, Move{Kind: Done}, "you are done")
	if s.Phase != WorkPhase {
		t.Fatalf("the round ended before every seat was done")
	}
	mustApply(t, s, 1, Move{Kind: Place, Dice: []int{2}, Action: Mine})
}

func TestEndOfWorkPhaseLimits(t *testing.T) {
	t.Run("resources", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Metal: 8, Energy: 6}}}.build(t)
		mustRefuse(t, s, 0, Move{Kind: Done}, "discard 2 metal or energy first")
		if !hasLegal(t, s, 0, Move{Kind: DiscardDown, Metal: 1}) || !hasLegal(t, s, 0, Move{Kind: DiscardDown, Energy: 1}) {
			t.Errorf("discarding 1 metal or 1 energy is not legal")
		}
		for _, split := range [][2]int{{2, 0}, {1, 1}, {0, 2}} {
			if !hasLegal(t, s, 0, Move{Kind: DiscardDown, Metal: split[0], Energy: split[1]}) {
				t.Errorf("discarding %d metal and %d energy, down to the limit at once, is not legal", split[0], split[1])
			}
		}
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Metal: 3}, "only down to 12; you are 2 over")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Metal: 2, Energy: 1}, "only down to 12")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Metal: 9}, "more metal or energy than you have")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Metal: -1, Energy: 3}, "more metal or energy than you have")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown}, "choose something to discard")
		s, events := mustApply(t, s, 0, Move{Kind: DiscardDown, Metal: 1, Energy: 1})
		if p := s.Players[0]; p.Metal != 7 || p.Energy != 5 {
			t.Errorf("%d metal %d energy; want 7 and 5", p.Metal, p.Energy)
		}
		if len(events) != 1 || events[0].Text != "discarded 1 metal and 1 energy to meet the limits" {
			t.Errorf("events %v; want the discard worded without the parts that are nil", events)
		}
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Energy: 1}, "you are 0 over")
		mustApply(t, s, 0, Move{Kind: Done})
	})
	t.Run("resource splits", func(t *testing.T) {
		// 8 over with 1 metal: the splits that meet the limit at once are
		// 1 metal and 7 energy, or 8 energy; with one over, only the single
		// units are offered.
		for _, tt := range []struct {
			metal, energy int
			want          []Move
		}{
			{1, 19, []Move{{Kind: DiscardDown, Metal: 1}, {Kind: DiscardDown, Energy: 1},
				{Kind: DiscardDown, Metal: 1, Energy: 7}, {Kind: DiscardDown, Energy: 8}}},
			{13, 0, []Move{{Kind: DiscardDown, Metal: 1}}},
		} {
			s := table{Seats: []seatSetup{{Metal: tt.metal, Energy: tt.energy}}}.build(t)
			var got []Move
			for _, m := range Legal(s, 0) {
				if m.Kind == DiscardDown {
					got = append(got, m)
				}
			}
			if string(mustJSON(got)) != string(mustJSON(tt.want)) {
				t.Errorf("%d metal %d energy: discards %s; want %s", tt.metal, tt.energy, mustJSON(got), mustJSON(tt.want))
			}
		}
		s := table{Seats: []seatSetup{{Metal: 1, Energy: 19}}}.build(t)
		s, events := mustApply(t, s, 0, Move{Kind: DiscardDown, Metal: 1, Energy: 7})
		if p := s.Players[0]; p.Metal != 0 || p.Energy != 12 || events[0].Text != "discarded 1 metal and 7 energy to meet the limits" {
			t.Errorf("%d metal %d energy, %v; want 0 and 12 in one move", p.Metal, p.Energy, events)
		}
		mustApply(t, s, 0, Move{Kind: Done})
	})
	t.Run("cards", func(t *testing.T) {
		hand := []string{Dojo, Dojo, Robot, Robot, Robot, Golem, Golem, Biolab, Biolab, Foundry, Foundry, Refinery}
		s := table{Seats: []seatSetup{{Hand: hand, Metal: 12}}}.build(t)
		mustRefuse(t, s, 0, Move{Kind: Done}, "discard 2 blueprints first")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Discard: inHand(t, s, 0, Dojo, Dojo, Robot)}, "only down to 10 in hand; you are 2 over")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Discard: []Card{one(Obelisk)}}, "not in your hand")
		dojo := inHand(t, s, 0, Dojo)[0]
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Discard: []Card{dojo, dojo}}, "not in your hand")
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Metal: 1, Discard: []Card{dojo}}, "only down to 12")
		for _, name := range []string{Dojo, Robot, Golem, Biolab, Foundry, Refinery} {
			if !hasLegal(t, s, 0, Move{Kind: DiscardDown, Discard: inHand(t, s, 0, name)}) {
				t.Errorf("discarding %s is not legal", name)
			}
		}
		s, _ = mustApply(t, s, 0, Move{Kind: DiscardDown, Discard: inHand(t, s, 0, Dojo, Refinery)})
		if got := len(s.Players[0].Hand); got != 10 {
			t.Errorf("%d cards; want 10", got)
		}
		if !sameCards(s.Discard, []Card{dojo, one(Refinery)}) {
			t.Errorf("discard pile %v", names(s.Discard))
		}
		mustRefuse(t, s, 0, Move{Kind: DiscardDown, Discard: inHand(t, s, 0, Robot)}, "you are 0 over")
		mustApply(t, s, 0, Move{Kind: Done})
	})
}

func TestRoundEnd(t *testing.T) {
	s := table{
		Seats: []seatSetup{
			{Compound: []string{PowerPlant, ScrapYard, Laboratory}, Hand: []string{Obelisk, Robot}, Dice: []int{5, 1, 2, 3}, Metal: 3, Energy: 1},
			{Dice: []int{6, 6, 6, 6}},
		},
		Market: []string{Dojo, Dojo},
	}.build(t)
	s.First = 1
	s, _ = mustApply(t, s, 0, act{name: PowerPlant, dice: []int{0}}.on(t, s))
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{1}, Action: Generate})
	s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Obelisk)[0], Discard: inHand(t, s, 0, Robot)})
	s, _ = mustApply(t, s, 1, Move{Kind: Place, Dice: []int{0}, Action: Mine})
	s, _ = mustApply(t, s, 1, Move{Kind: Done})
	s, events := mustApply(t, s, 0, Move{Kind: Done})
	if s.Phase != MarketPhase || s.Round != 2 {
		t.Fatalf("phase %s round %d; want the market phase of round 2", s.Phase, s.Round)
	}
	if s.First != 0 || s.Turn != 0 || s.Turns != 0 {
		t.Errorf("first %d turn %d turns %d; want the token passed clockwise to seat 0", s.First, s.Turn, s.Turns)
	}
	for seat, p := range s.Players {
		if p.Done || len(p.HQ.Research)+len(p.HQ.Generate)+len(p.HQ.Mine) != 0 || p.ScrapUsed || p.SolarUsed || p.LabDrew {
			t.Errorf("seat %d not cleaned up: %+v", seat, p)
		}
		for _, b := range p.Compound {
			if b.Used || len(b.Dice) != 0 {
				t.Errorf("seat %d's %s still used: %+v", seat, b.Card.Name(), b)
			}
		}
		if len(p.Dice) != 4 {
			t.Errorf("seat %d has %d dice", seat, len(p.Dice))
		}
	}
	if last := events[len(events)-1]; last.Kind != "round" || !strings.Contains(last.Text, "round 2") {
		t.Errorf("last event %+v; want round 2 announced", last)
	}
	// Token passing wraps around.
	s = toWorkPhase(t, s)
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	s, _ = mustApply(t, s, 1, Move{Kind: Done})
	if s.First != 1 || s.Turn != 1 || s.Round != 3 {
		t.Errorf("round %d first %d turn %d; want the token back at seat 1", s.Round, s.First, s.Turn)
	}
}

// playOutRound finishes the current round with every seat drafting or
// passing and then declaring done, discarding down when needed.
func playOutRound(t testing.TB, s State) State {
	t.Helper()
	if s.Phase == MarketPhase {
		s = toWorkPhase(t, s)
	}
	round := s.Round
	for s.Phase == WorkPhase && s.Round == round {
		for seat, p := range s.Players {
			if p.Done {
				continue
			}
			switch {
			case p.SettingDice:
				s, _ = mustApply(t, s, seat, Move{Kind: SetDice})
			case len(p.Hand) > HandLimit:
				s, _ = mustApply(t, s, seat, Move{Kind: DiscardDown, Discard: p.Hand[:len(p.Hand)-HandLimit]})
			case p.Metal+p.Energy > StoreLimit:
				over := p.Metal + p.Energy - StoreLimit
				m := min(over, p.Metal)
				s, _ = mustApply(t, s, seat, Move{Kind: DiscardDown, Metal: m, Energy: over - m})
			default:
				s, _ = mustApply(t, s, seat, Move{Kind: Done})
			}
			break
		}
	}
	return s
}

func TestGameEndByGoods(t *testing.T) {
	s := table{
		Seats:  []seatSetup{{Compound: []string{Biolab}, Dice: []int{1, 1, 1, 1}, Energy: 1, Goods: 11}},
		Market: []string{Dojo, Dojo, Robot, Robot},
	}.build(t)
	s, events := mustApply(t, s, 0, act{name: Biolab, dice: []int{0}}.on(t, s))
	if s.FinalRound != 2 || s.EndCause != "has 12 goods" || s.EndSeat != 0 {
		t.Fatalf("final round %d cause %q; want round 2 to be the last", s.FinalRound, s.EndCause)
	}
	if last := events[len(events)-1]; last.Kind != "end" {
		t.Errorf("no end event: %v", events)
	}
	s = playOutRound(t, s)
	if s.Phase != MarketPhase || s.Round != 2 {
		t.Fatalf("phase %s round %d; want one more round after the trigger", s.Phase, s.Round)
	}
	s = playOutRound(t, s)
	if s.Phase != GameOver || s.Round != 2 {
		t.Fatalf("phase %s round %d; want the game over after round 2", s.Phase, s.Round)
	}
	st := StatusOf(s)
	if !st.Over || len(st.Acting) != 0 {
		t.Errorf("status %+v; want over with nobody acting", st)
	}
	mustRefuse(t, s, 0, Move{Kind: Done}, "the game is over")
	mustRefuse(t, s, 1, Move{Kind: Take}, "the game is over")
	for seat := range s.Players {
		if Legal(s, seat) != nil {
			t.Errorf("seat %d has legal moves after the game", seat)
		}
	}
	if v := ViewOf(s, 0); len(v.Scores) != 2 || v.Scores[0].Seat != 0 || !v.Scores[0].Winner || v.Scores[0].Total != 13 {
		t.Errorf("final scores %+v; want seat 0 to win with 12 goods + Biolab's 1 prestige", v.Scores)
	}
}

func TestGameEndByBuildings(t *testing.T) {
	compound := []string{Dojo, Robot, Biolab, Golem, Harvester, Foundry, Refinery, Incinerator, Motherlode}
	s := table{
		Seats:  []seatSetup{{}, {Compound: compound, Hand: []string{Obelisk, TempAgency}, Metal: 3, Energy: 1}},
		Market: []string{Obelisk, Obelisk, Beacon, Beacon},
	}.build(t)
	s.Round = 4
	s, _ = mustApply(t, s, 1, Move{Kind: Build, Card: inHand(t, s, 1, Obelisk)[0], Discard: inHand(t, s, 1, TempAgency)})
	if s.FinalRound != 5 || s.EndCause != "has 10 buildings" || s.EndSeat != 1 {
		t.Fatalf("final round %d cause %q", s.FinalRound, s.EndCause)
	}
	s = playOutRound(t, s)
	if s.Round != 5 || s.Phase != MarketPhase {
		t.Fatalf("round %d phase %s; want round 5", s.Round, s.Phase)
	}
	// A second trigger in the last round changes nothing.
	s.Players[0].Goods = 20
	s = playOutRound(t, s)
	if s.Phase != GameOver || s.FinalRound != 5 {
		t.Errorf("phase %s final round %d; want the game over after round 5", s.Phase, s.FinalRound)
	}
}

func TestNoEndBelowTheThresholds(t *testing.T) {
	compound := []string{Dojo, Robot, Biolab, Golem, Harvester, Foundry, Refinery, Incinerator, Motherlode}
	s := table{Seats: []seatSetup{{Compound: compound, Goods: 11}}, Market: []string{Obelisk, Obelisk, Beacon, Beacon}}.build(t)
	for range 3 {
		s = playOutRound(t, s)
	}
	if s.FinalRound != 0 || s.Phase == GameOver {
		t.Errorf("the end was triggered at 11 goods and 9 buildings: %s %d", s.EndCause, s.FinalRound)
	}
}

func TestScores(t *testing.T) {
	type seat struct {
		goods, metal, energy int
		compound, hand       []string
	}
	cases := []struct {
		name   string
		seats  []seat
		totals []int // by seat
		ranks  []int // by seat
	}{
		{"goods plus prestige", []seat{{goods: 5, compound: []string{Obelisk}}, {goods: 8}}, []int{7, 8}, []int{2, 1}},
		{"Beacons and Megalith", []seat{{compound: []string{Beacon, Beacon, Megalith}}, {goods: 7, compound: []string{Dojo, Biolab}}}, []int{8, 8}, []int{1, 1}},
		{"tie: most metal", []seat{{goods: 7, metal: 2, energy: 9}, {goods: 7, metal: 3}}, []int{7, 7}, []int{2, 1}},
		{"tie: then most energy", []seat{{goods: 7, metal: 3, energy: 2, hand: []string{Dojo, Dojo}}, {goods: 7, metal: 3, energy: 3}}, []int{7, 7}, []int{2, 1}},
		{"tie: then most cards in hand", []seat{{goods: 7, metal: 3, energy: 3, hand: []string{Dojo}}, {goods: 7, metal: 3, energy: 3}}, []int{7, 7}, []int{1, 2}},
		{"tie: shared win", []seat{{goods: 4, metal: 1}, {goods: 7, metal: 3, hand: []string{Robot}}, {goods: 7, metal: 3, hand: []string{Dojo}}}, []int{4, 7, 7}, []int{3, 1, 1}},
		{"shared second place", []seat{{goods: 9}, {goods: 4}, {goods: 4}, {goods: 1}}, []int{9, 4, 4, 1}, []int{1, 2, 2, 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tb := table{Players: len(tc.seats), Phase: GameOver}
			for _, st := range tc.seats {
				tb.Seats = append(tb.Seats, seatSetup{Goods: st.goods, Metal: st.metal, Energy: st.energy, Compound: st.compound, Hand: st.hand})
			}
			scores := Scores(tb.build(t))
			if len(scores) != len(tc.seats) {
				t.Fatalf("%d scores for %d seats", len(scores), len(tc.seats))
			}
			for i, sc := range scores {
				if i > 0 && sc.Rank < scores[i-1].Rank {
					t.Errorf("scores not in rank order: %+v", scores)
				}
				if sc.Total != tc.totals[sc.Seat] || sc.Rank != tc.ranks[sc.Seat] || sc.Winner != (sc.Rank == 1) {
					t.Errorf("seat %d: %+v; want total %d rank %d", sc.Seat, sc, tc.totals[sc.Seat], tc.ranks[sc.Seat])
				}
				if sc.Total != sc.Goods+sc.Prestige {
					t.Errorf("seat %d: total %d is not goods %d + prestige %d", sc.Seat, sc.Total, sc.Goods, sc.Prestige)
				}
			}
		})
	}
}

func TestDeckExhaustion(t *testing.T) {
	t.Run("the discard pile is reshuffled into a new deck", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Dice: []int{1, 2, 3, 4}}}}.build(t)
		s.Discard, s.Deck = s.Deck, []Card{}
		want := slices.Clone(s.Discard)
		r := s.RNG
		r.Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Research})
		if got := s.Players[0].Hand; !slices.Equal(got, want[:1]) {
			t.Errorf("drew %v; want %v, the top of the reshuffled discard pile", names(got), names(want[:1]))
		}
		if len(s.Discard) != 0 || !slices.Equal(s.Deck, want[1:]) {
			t.Errorf("deck %d cards, discard %d; want the rest of the reshuffled pile as the deck", len(s.Deck), len(s.Discard))
		}
	})
	t.Run("a draw from nothing draws nothing", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Dice: []int{1, 2, 3, 4}}}}.build(t)
		s.Players[1].Hand, s.Deck = s.Deck, []Card{}
		s, events := mustApply(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Research})
		if len(s.Players[0].Hand) != 0 || !s.Players[0].Dice[0].Placed {
			t.Errorf("hand %v; want the worker placed and nothing drawn", s.Players[0].Hand)
		}
		if events[0].Kind != "deck" {
			t.Errorf("events %v; want a note that the deck is empty", events)
		}
	})
	t.Run("the marketplace refills from a reshuffled discard pile", func(t *testing.T) {
		s := table{Phase: MarketPhase, Market: []string{Dojo, Robot, Golem, Biolab}}.build(t)
		s.Discard, s.Deck = s.Deck, []Card{}
		s, _ = mustApply(t, s, 0, Move{Kind: Take, Slot: 1})
		if s.Market.Blueprints[1] == None || len(s.Discard) != 0 {
			t.Errorf("slot %v, discard %d; want a card from the reshuffled pile", s.Market.Blueprints[1], len(s.Discard))
		}
	})
	t.Run("an empty marketplace slot stays empty when no card is left", func(t *testing.T) {
		s := table{Phase: MarketPhase, Market: []string{Dojo, Robot, Golem, Biolab}}.build(t)
		s.Players[1].Hand, s.Deck = s.Deck, []Card{}
		s, _ = mustApply(t, s, 0, Move{Kind: Take, Slot: 1})
		if s.Market.Blueprints[1] != None {
			t.Errorf("slot 1 holds %v", s.Market.Blueprints[1])
		}
		mustRefuse(t, s, 1, Move{Kind: Take, Slot: 1}, "slot is empty")
	})
	t.Run("the contractor deck reshuffles its discard pile", func(t *testing.T) {
		s := table{Phase: MarketPhase, Contractors: []string{Investor}, Seats: []seatSetup{{Hand: []string{Dojo}}}}.build(t)
		s.ContractorDiscard, s.ContractorDeck = s.ContractorDeck, []Contractor{}
		s, _ = mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, Dojo)})
		if s.Market.Contractors[0] == None || len(s.ContractorDiscard) != 0 || len(s.ContractorDeck) != NumContractors()-marketSize {
			t.Errorf("row %v deck %d discard %d; want the discard pile reshuffled into the deck", s.Market.Contractors, len(s.ContractorDeck), len(s.ContractorDiscard))
		}
	})
}

// TestLegalIsExact pins the whole legal move list of small positions, so a
// missing or extra move shows up.
func TestLegalIsExact(t *testing.T) {
	kinds := func(legal []Move) []string {
		var out []string
		for _, m := range legal {
			out = append(out, marshal(t, m))
		}
		slices.Sort(out)
		return out
	}
	t.Run("work phase", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Compound: []string{PowerPlant}, Dice: []int{1, 4, 1}}}}.build(t)
		pp := inCompound(t, s, 0, PowerPlant)
		want := []Move{
			{Kind: Done},
			{Kind: Place, Dice: []int{0}, Action: Research},
			{Kind: Place, Dice: []int{0}, Action: Generate},
			{Kind: Place, Dice: []int{1}, Action: Research},
			{Kind: Place, Dice: []int{1}, Action: Mine},
			{Kind: Activate, Card: pp, Dice: []int{0}},
			{Kind: Activate, Card: pp, Dice: []int{1}},
		}
		if got, w := kinds(Legal(s, 0)), kinds(want); !slices.Equal(got, w) {
			t.Errorf("legal moves\n%v\nwant\n%v", got, w)
		}
	})
	t.Run("market phase", func(t *testing.T) {
		s := table{Players: 3, Phase: MarketPhase, Market: []string{Obelisk},
			Contractors: []string{Architect, Investor, Engineer, Miner},
			Seats:       []seatSetup{{Hand: []string{Dojo, Dojo, Laboratory}, Metal: 1}}}.build(t)
		dojo, lab := inHand(t, s, 0, Dojo)[0], inHand(t, s, 0, Laboratory)[0]
		want := []Move{
			{Kind: Refresh, Row: BlueprintRow, Pay: "metal"},
			{Kind: Refresh, Row: ContractorRow, Pay: "metal"},
			{Kind: Take, Slot: 0},
			{Kind: Hire, Slot: 0, Discard: []Card{dojo}, Opponent: 1}, // Architect: gift to seat 2 or 3
			{Kind: Hire, Slot: 0, Discard: []Card{dojo}, Opponent: 2},
			{Kind: Hire, Slot: 1, Discard: []Card{lab}}, // Investor: no gift
		}
		if got, w := kinds(Legal(s, 0)), kinds(want); !slices.Equal(got, w) {
			t.Errorf("legal moves\n%v\nwant\n%v", got, w)
		}
	})
	t.Run("Foreman", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Dice: []int{0, 0, 0, 0}}}}.build(t)
		s.Players[0].SettingDice = true
		legal := Legal(s, 0)
		// Every multiset of 0 to 4 values: 1 + 6 + 21 + 56 + 126.
		if len(legal) != 210 {
			t.Errorf("%d Foreman choices; want 210", len(legal))
		}
		for _, m := range legal {
			if m.Kind != SetDice || !slices.IsSorted(m.Values) {
				t.Fatalf("unexpected %+v", m)
			}
		}
	})
}
