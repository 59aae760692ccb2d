package factories

import (
	"slices"
	"testing"
)

// The contractor row's tools, by slot: gear, wrench, hammer, shovel. These
// hand cards carry each tool.
const (
	gearCard   = Dojo
	wrenchCard = Laboratory
	hammerCard = Robot
	shovelCard = Gymnasium
)

// hireTable is a 2-player (or n-player) market phase with seat 0 to act.
func hireTable(players int, row []string, seat seatSetup, deck ...string) table {
	return table{Players: players, Phase: MarketPhase, Contractors: row, Seats: []seatSetup{seat},
		Market: []string{Obelisk, Obelisk, Obelisk, Obelisk}, Deck: deck}
}

func TestContractorGifts(t *testing.T) {
	row := []string{Architect, Electrician, Miner, Investor}
	hand := []string{gearCard, wrenchCard, hammerCard}
	cases := []struct {
		slot    int
		discard string
		me, opp delta
	}{
		{0, gearCard, delta{Hand: -1 + 3}, delta{Hand: 1}},            // Architect: 3 cards, opponent 1
		{1, wrenchCard, delta{Hand: -1, Energy: 5}, delta{Energy: 2}}, // Electrician: 5 energy, opponent 2
		{2, hammerCard, delta{Hand: -1, Metal: 3}, delta{Metal: 1}},   // Miner: 3 metal, opponent 1
	}
	for _, tc := range cases {
		name := row[tc.slot]
		t.Run(name, func(t *testing.T) {
			for _, opp := range []int{1, 2} {
				s := hireTable(3, row, seatSetup{Hand: hand}, Harvester, Foundry, Biolab, Refinery).build(t)
				hired := s.Market.Contractors[tc.slot]
				m := Move{Kind: Hire, Slot: tc.slot, Discard: inHand(t, s, 0, tc.discard), Opponent: opp}
				if !hasLegal(t, s, 0, m) {
					t.Errorf("%+v is not legal", m)
				}
				after, events := mustApply(t, s, 0, m)
				if got := deltaOf(s.Players[0], after.Players[0]); got != tc.me {
					t.Errorf("hirer changed by %+v; want %+v", got, tc.me)
				}
				if got := deltaOf(s.Players[opp], after.Players[opp]); got != tc.opp {
					t.Errorf("seat %d changed by %+v; want %+v", opp, got, tc.opp)
				}
				other := 3 - opp
				if got := deltaOf(s.Players[other], after.Players[other]); got != (delta{}) {
					t.Errorf("seat %d, not chosen, changed by %+v", other, got)
				}
				if name == Architect {
					if got := names(after.Players[0].Hand); !slices.Equal(got, []string{wrenchCard, hammerCard, Harvester, Foundry, Biolab}) {
						t.Errorf("hirer's hand %v; want the top 3 of the deck added", got)
					}
					if got := names(after.Players[opp].Hand); !slices.Equal(got, []string{Refinery}) {
						t.Errorf("opponent's hand %v; want the next card", got)
					}
				}
				if !slices.Contains(after.ContractorDiscard, hired) {
					t.Errorf("the hired %s is not in the contractor discard pile", name)
				}
				if got := after.Market.Contractors[tc.slot]; got != s.ContractorDeck[0] {
					t.Errorf("slot refilled with %v; want the top of the contractor deck %v", got, s.ContractorDeck[0])
				}
				if !slices.Equal(names(after.Discard), []string{tc.discard}) {
					t.Errorf("discard pile %v; want the paid %s", names(after.Discard), tc.discard)
				}
				if after.Turn != 1 || after.Turns != 1 {
					t.Errorf("turn %d after %d turns; want seat 1 next", after.Turn, after.Turns)
				}
				gifted := false
				for _, e := range events {
					if e.Seat == opp && (e.Kind == "gift" || e.Kind == "draw") {
						gifted = true
					}
				}
				if !gifted {
					t.Errorf("no event tells seat %d about the gift: %v", opp, events)
				}
			}
		})
		t.Run(name+" needs an opponent", func(t *testing.T) {
			s := hireTable(3, row, seatSetup{Hand: hand}).build(t)
			for _, opp := range []int{0, -1, 3} {
				mustRefuse(t, s, 0, Move{Kind: Hire, Slot: tc.slot, Discard: inHand(t, s, 0, tc.discard), Opponent: opp}, "pick an opponent")
			}
		})
		t.Run(name+" solo ignores the gift", func(t *testing.T) {
			for _, opp := range []int{0, 3, -1} {
				s := hireTable(1, row, seatSetup{Hand: hand}, Harvester, Foundry, Biolab, Refinery).build(t)
				after, events := mustApply(t, s, 0, Move{Kind: Hire, Slot: tc.slot, Discard: inHand(t, s, 0, tc.discard), Opponent: opp})
				want := tc.me
				want.Dice = 4 // the only market turn is over: the work phase rolls
				if got := deltaOf(s.Players[0], after.Players[0]); got != want {
					t.Errorf("solo hirer changed by %+v; want %+v (gift ignored)", got, want)
				}
				for _, e := range events {
					if e.Kind == "gift" {
						t.Errorf("solo gift event %v", e)
					}
				}
				if got := len(after.Deck); name == Architect && got != len(s.Deck)-3 {
					t.Errorf("solo Architect drew %d cards", len(s.Deck)-got)
				}
			}
		})
	}
}

func TestContractorHireRefusals(t *testing.T) {
	row := []string{Engineer, Foreman, HiredHands, Investor}
	s := hireTable(2, row, seatSetup{Hand: []string{gearCard, wrenchCard, hammerCard, shovelCard}, Energy: 1}).build(t)
	hand := func(n string) []Card { return inHand(t, s, 0, n) }
	cases := []struct {
		name string
		m    Move
		want string
	}{
		{"Engineer costs 4 energy", Move{Kind: Hire, Slot: 0, Discard: hand(gearCard)}, "costs 4 energy on top of the blueprint; you have 1"},
		{"Foreman costs 2 energy", Move{Kind: Hire, Slot: 1, Discard: hand(wrenchCard)}, "costs 2 energy"},
		{"Hired Hands cost 3 energy", Move{Kind: Hire, Slot: 2, Discard: hand(hammerCard)}, "costs 3 energy"},
		{"the slot's tool must match", Move{Kind: Hire, Slot: 3, Discard: hand(gearCard)}, "needs a shovel blueprint; Dojo has a gear"},
		{"a discard is needed", Move{Kind: Hire, Slot: 3}, "needs one shovel blueprint"},
		{"one discard only", Move{Kind: Hire, Slot: 3, Discard: append(hand(shovelCard), hand(gearCard)...)}, "needs one shovel blueprint"},
		{"the discard must be in hand", Move{Kind: Hire, Slot: 3, Discard: []Card{copyOf(Gymnasium, 2)}}, "not in your hand"},
		{"an unknown card is not in hand either", Move{Kind: Hire, Slot: 3, Discard: []Card{Card(999)}}, "not in your hand"},
		{"slot out of range", Move{Kind: Hire, Slot: 4, Discard: hand(shovelCard)}, "numbered 0 to 3"},
		{"negative slot", Move{Kind: Hire, Slot: -1, Discard: hand(shovelCard)}, "numbered 0 to 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { mustRefuse(t, s, 0, tc.m, tc.want) })
	}
	t.Run("an empty slot", func(t *testing.T) {
		s := s
		s.ContractorDiscard = append(s.ContractorDiscard, s.Market.Contractors[3])
		s.Market.Contractors[3] = None
		mustRefuse(t, s, 0, Move{Kind: Hire, Slot: 3, Discard: hand(shovelCard)}, "slot is empty")
	})
	t.Run("not the seat's turn", func(t *testing.T) {
		mustRefuse(t, s, 1, Move{Kind: Hire, Slot: 3, Discard: hand(shovelCard)}, "not your turn in the market phase")
	})
	t.Run("not in the work phase", func(t *testing.T) {
		s := s
		s.Phase = WorkPhase
		mustRefuse(t, s, 0, Move{Kind: Hire, Slot: 3, Discard: hand(shovelCard)}, "not a work phase move")
	})
}

func TestEngineer(t *testing.T) {
	t.Run("builds the first card it may, for free, with Scrap Yard and Solar Array", func(t *testing.T) {
		s := hireTable(2, []string{Engineer}, seatSetup{Compound: []string{Biolab, ScrapYard, SolarArray}, Hand: []string{gearCard}, Energy: 4},
			Biolab, PowerPlant, Obelisk).build(t)
		after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, gearCard)})
		p := after.Players[0]
		if got := names(cardsOf(p.Compound)); !slices.Equal(got, []string{Biolab, ScrapYard, SolarArray, PowerPlant}) {
			t.Errorf("compound %v; want Power Plant added, the second Biolab passed over", got)
		}
		if p.Metal != 1 || p.Energy != 2 {
			t.Errorf("%d metal %d energy; want 4 energy paid, Scrap Yard's metal and Solar Array's energy", p.Metal, p.Energy)
		}
		if got := names(after.Discard); !slices.Equal(got, []string{gearCard, Biolab}) {
			t.Errorf("discard pile %v; want the paid Dojo and the revealed Biolab", got)
		}
		if got := after.Deck[0].Name(); got != Obelisk {
			t.Errorf("deck top %s; want the Engineer to stop after the Power Plant", got)
		}
		// Scrap Yard and Solar Array have triggered for this round.
		after = toWorkPhase(t, after)
		after.Players[0].Hand = []Card{}
		if !after.Players[0].ScrapUsed || !after.Players[0].SolarUsed {
			t.Errorf("Engineer's build did not use up this round's Scrap Yard and Solar Array")
		}
	})
	t.Run("the search ends when nothing can be built", func(t *testing.T) {
		// Every card but one Biolab is in seat 1's hand; seat 0 owns the
		// other Biolab and pays with the one in hand.
		s := hireTable(2, []string{Engineer}, seatSetup{Compound: []string{Biolab}, Hand: []string{Biolab}, Energy: 4}).build(t)
		s.Players[1].Hand = append(s.Players[1].Hand, s.Deck...)
		s.Players[1].Hand = append(s.Players[1].Hand, s.Market.Blueprints[:]...)
		s.Deck, s.Market.Blueprints = []Card{}, [4]Card{None, None, None, None}
		checkInvariants(t, s)
		after, events := mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, Biolab)})
		if got := len(after.Players[0].Compound); got != 1 {
			t.Errorf("compound has %d cards; want nothing built", got)
		}
		if after.Players[0].Energy != 0 {
			t.Errorf("energy %d; the Engineer is paid even when it finds nothing", after.Players[0].Energy)
		}
		if !slices.ContainsFunc(events, func(e Event) bool { return e.Text == "the Engineer found nothing to build" }) {
			t.Errorf("events %+v do not say the Engineer found nothing", events)
		}
	})
	t.Run("an Engineer build can trigger the game end", func(t *testing.T) {
		s := hireTable(2, []string{Engineer}, seatSetup{
			Compound: []string{Dojo, Robot, Biolab, Golem, Harvester, Foundry, Refinery, Incinerator, Motherlode},
			Hand:     []string{gearCard}, Energy: 4}, PowerPlant).build(t)
		after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, gearCard)})
		if after.FinalRound != 2 || after.EndCause == "" {
			t.Errorf("final round %d, cause %q; want the end triggered by the 10th building", after.FinalRound, after.EndCause)
		}
	})
}

func cardsOf(compound []Building) []Card {
	var out []Card
	for _, b := range compound {
		out = append(out, b.Card)
	}
	return out
}

func TestInvestor(t *testing.T) {
	cases := []struct {
		top          string
		metal, eng   int
		withMonument bool
	}{
		{Megalith, 5, 2, true}, // full cost, no discount
		{Beacon, 2, 4, false},
		{Golem, 4, 0, false},
		{FitnessCenter, 1, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.top, func(t *testing.T) {
			seat := seatSetup{Hand: []string{hammerCard}}
			if tc.withMonument {
				seat.Compound = []string{Obelisk, Beacon}
			}
			s := hireTable(2, []string{Architect, Electrician, Investor}, seat, tc.top).build(t)
			after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 2, Discard: inHand(t, s, 0, hammerCard)})
			if p := after.Players[0]; p.Metal != tc.metal || p.Energy != tc.eng {
				t.Errorf("%d metal %d energy; want %s's printed %d and %d", p.Metal, p.Energy, tc.top, tc.metal, tc.eng)
			}
			if got := names(after.Discard); !slices.Equal(got, []string{hammerCard, tc.top}) {
				t.Errorf("discard pile %v; want the paid card and the revealed %s", got, tc.top)
			}
		})
	}
}

func TestForeman(t *testing.T) {
	s := hireTable(2, []string{Architect, Foreman}, seatSetup{Hand: []string{wrenchCard}, Energy: 2}).build(t)
	s, _ = mustApply(t, s, 0, Move{Kind: Hire, Slot: 1, Discard: inHand(t, s, 0, wrenchCard)})
	if p := s.Players[0]; !p.Foreman || p.Energy != 0 {
		t.Fatalf("after hiring the Foreman: %+v", p)
	}
	s = toWorkPhase(t, s)
	p := s.Players[0]
	if !p.SettingDice || p.Foreman || len(p.Dice) != 4 {
		t.Fatalf("work phase with a Foreman: %+v; want 4 dice waiting for values", p)
	}
	for _, d := range p.Dice {
		if d.Value != 0 {
			t.Fatalf("Foreman dice were rolled: %v", diceValues(p))
		}
	}
	if s.Players[1].SettingDice {
		t.Errorf("the other seat is setting dice too")
	}
	// Only SetDice is possible until the dice are set.
	for _, l := range Legal(s, 0) {
		if l.Kind != SetDice {
			t.Errorf("%+v is legal before the Foreman dice are set", l)
		}
	}
	mustRefuse(t, s, 0, Move{Kind: Done}, "choose your Foreman dice values first")
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Research}, "Foreman dice values first")
	mustRefuse(t, s, 0, Move{Kind: SetDice, Values: []int{1, 2, 3, 4, 5}}, "at most 4")
	mustRefuse(t, s, 0, Move{Kind: SetDice, Values: []int{6, 7}}, "not 7")
	mustRefuse(t, s, 0, Move{Kind: SetDice, Values: []int{0}}, "not 0")
	mustRefuse(t, s, 1, Move{Kind: SetDice, Values: []int{6}}, "no Foreman dice")

	set, _ := mustApply(t, s, 0, Move{Kind: SetDice, Values: []int{6, 6, 6, 5}})
	if got := diceValues(set.Players[0]); !slices.Equal(got, []int{6, 6, 6, 5}) || set.Players[0].SettingDice {
		t.Errorf("dice %v after setting 6 6 6 5", got)
	}
	mustRefuse(t, set, 0, Move{Kind: SetDice, Values: []int{1}}, "no Foreman dice")

	// Setting fewer rolls the rest.
	part, _ := mustApply(t, s, 0, Move{Kind: SetDice, Values: []int{2}})
	r := s.RNG
	if got, want := diceValues(part.Players[0]), []int{2, r.Die(), r.Die(), r.Die()}; !slices.Equal(got, want) {
		t.Errorf("dice %v after setting one 2; want %v", got, want)
	}
}

func TestForemanWithMoreThanFourDice(t *testing.T) {
	s := table{Phase: MarketPhase, Market: []string{Obelisk, Obelisk}}.build(t)
	s.Players[0].Foreman, s.Players[0].HiredHands, s.Players[0].Specialists = true, 1, 1
	s = toWorkPhase(t, s)
	if got := len(s.Players[0].Dice); got != 7 {
		t.Fatalf("%d dice; want 4 + 2 Hired Hands + 1 Specialist", got)
	}
	s, _ = mustApply(t, s, 0, Move{Kind: SetDice, Values: []int{1, 2, 3, 4}})
	p := s.Players[0]
	if got := diceValues(p)[:4]; !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Errorf("the four set dice are %v", got)
	}
	for i, d := range p.Dice[4:6] {
		if d.Value < 1 || d.Value > 6 || !d.Extra {
			t.Errorf("Hired Hands die %d: %+v; want rolled and extra", i, d)
		}
	}
	if d := p.Dice[6]; d.Value != 0 || !d.Chosen {
		t.Errorf("Specialist die %+v; want it waiting for its chosen value", d)
	}
}

func TestHiredHands(t *testing.T) {
	s := hireTable(2, []string{Architect, Electrician, HiredHands}, seatSetup{Hand: []string{hammerCard}, Energy: 3}).build(t)
	mustRefuse(t, func() State { s := s.Clone(); s.Players[0].Energy = 2; return s }(), 0,
		Move{Kind: Hire, Slot: 2, Discard: inHand(t, s, 0, hammerCard)}, "costs 3 energy")
	s, _ = mustApply(t, s, 0, Move{Kind: Hire, Slot: 2, Discard: inHand(t, s, 0, hammerCard)})
	if p := s.Players[0]; p.HiredHands != 1 || p.Energy != 0 {
		t.Fatalf("after hiring: %+v", p)
	}
	s = toWorkPhase(t, s)
	p := s.Players[0]
	if len(p.Dice) != 6 || p.HiredHands != 0 {
		t.Fatalf("%d dice, %d hired hands; want 6 dice", len(p.Dice), p.HiredHands)
	}
	for i, d := range p.Dice {
		if d.Value < 1 || d.Value > 6 || d.Extra != (i >= 4) {
			t.Errorf("die %d: %+v", i, d)
		}
	}
	if got := len(s.Players[1].Dice); got != 4 {
		t.Errorf("the other seat has %d dice", got)
	}
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{5}, Action: Research})
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	s, _ = mustApply(t, s, 1, Move{Kind: Done})
	if got := len(s.Players[0].Dice); got != 4 {
		t.Errorf("%d dice after the round; the hired hands leave", got)
	}
	s = toWorkPhase(t, s)
	if got := len(s.Players[0].Dice); got != 4 {
		t.Errorf("%d dice in the next round; want 4", got)
	}
}

func TestSpecialist(t *testing.T) {
	s := hireTable(2, []string{Specialist}, seatSetup{Hand: []string{gearCard}}).build(t)
	s, _ = mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, gearCard)})
	if s.Players[0].Specialists != 1 {
		t.Fatalf("after hiring: %+v", s.Players[0])
	}
	s = toWorkPhase(t, s)
	p := s.Players[0]
	if len(p.Dice) != 5 {
		t.Fatalf("%d dice; want 4 rolled + the Specialist's", len(p.Dice))
	}
	for _, d := range p.Dice[:4] {
		if d.Value < 1 || d.Value > 6 {
			t.Errorf("own dice %v; want them rolled first", diceValues(p))
		}
	}
	if d := p.Dice[4]; d != (Die{Extra: true, Chosen: true}) {
		t.Fatalf("Specialist die %+v; want an unset extra die", d)
	}
	for v := 1; v <= 6; v++ {
		if !hasLegal(t, s, 0, Move{Kind: Choose, Dice: []int{4}, Value: v}) {
			t.Errorf("choosing %d is not legal", v)
		}
	}
	mustRefuse(t, s, 0, Move{Kind: Place, Dice: []int{4}, Action: Research}, "choose that die's value first")
	mustRefuse(t, s, 0, Move{Kind: Choose, Dice: []int{4}, Value: 7}, "not 7")
	mustRefuse(t, s, 0, Move{Kind: Choose, Dice: []int{4}}, "not 0")
	mustRefuse(t, s, 0, Move{Kind: Choose, Dice: []int{0}, Value: 6}, "only an unset Specialist die")
	mustRefuse(t, s, 0, Move{Kind: Choose, Dice: []int{9}, Value: 6}, "name the Specialist die")
	mustRefuse(t, s, 0, Move{Kind: Choose, Value: 6}, "name the Specialist die")
	s, _ = mustApply(t, s, 0, Move{Kind: Choose, Dice: []int{4}, Value: 6})
	if d := s.Players[0].Dice[4]; d.Value != 6 {
		t.Fatalf("Specialist die %+v; want 6", d)
	}
	mustRefuse(t, s, 0, Move{Kind: Choose, Dice: []int{4}, Value: 2}, "only an unset Specialist die")
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{4}, Action: Mine})
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	s, _ = mustApply(t, s, 1, Move{Kind: Done})
	if got := len(s.Players[0].Dice); got != 4 {
		t.Errorf("%d dice after the round; the Specialist die leaves", got)
	}
}

// An unset Specialist die does not stop the seat from finishing.
func TestSpecialistDieMayStayUnset(t *testing.T) {
	s := table{Phase: MarketPhase, Market: []string{Obelisk, Obelisk}}.build(t)
	s.Players[0].Specialists = 2
	s = toWorkPhase(t, s)
	if got := len(s.Players[0].Dice); got != 6 {
		t.Fatalf("%d dice with two Specialists; want 6", got)
	}
	mustApply(t, s, 0, Move{Kind: Done})
}

func TestEngineerAndDuplicates(t *testing.T) {
	t.Run("a second Obelisk may be built", func(t *testing.T) {
		tb := hireTable(2, []string{Engineer}, seatSetup{Compound: []string{Obelisk}, Hand: []string{gearCard}, Energy: 4}, Obelisk)
		tb.Market = []string{Robot, Robot, Robot, Golem}
		s := tb.build(t)
		after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, gearCard)})
		if got := names(cardsOf(after.Players[0].Compound)); !slices.Equal(got, []string{Obelisk, Obelisk}) {
			t.Errorf("compound %v; want a second Obelisk", got)
		}
	})
	t.Run("a second Megalith is passed over", func(t *testing.T) {
		s := hireTable(2, []string{Engineer}, seatSetup{Compound: []string{Megalith}, Hand: []string{gearCard}, Energy: 4}, Megalith, Beacon).build(t)
		after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, gearCard)})
		if got := names(cardsOf(after.Players[0].Compound)); !slices.Equal(got, []string{Megalith, Beacon}) {
			t.Errorf("compound %v; want the Megalith discarded and the Beacon built", got)
		}
		if got := names(after.Discard); !slices.Equal(got, []string{gearCard, Megalith}) {
			t.Errorf("discard pile %v", got)
		}
	})
	t.Run("a Megalith is free whatever the Monuments", func(t *testing.T) {
		s := hireTable(2, []string{Engineer}, seatSetup{Hand: []string{gearCard}, Energy: 4}, Megalith).build(t)
		after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 0, Discard: inHand(t, s, 0, gearCard)})
		if p := after.Players[0]; len(p.Compound) != 1 || p.Metal != 0 || p.Energy != 0 {
			t.Errorf("%+v; want Megalith built for nothing but the Engineer's 4 energy", p)
		}
	})
}

// With the deck empty the discard pile, which already holds the card paid
// for the hire, is reshuffled: the Investor reveals that card.
func TestInvestorWithAnEmptyDeck(t *testing.T) {
	s := hireTable(2, []string{Architect, Electrician, Investor}, seatSetup{Hand: []string{hammerCard}}).build(t)
	s.Players[1].Hand = append(s.Players[1].Hand, s.Deck...)
	s.Deck = []Card{}
	after, _ := mustApply(t, s, 0, Move{Kind: Hire, Slot: 2, Discard: inHand(t, s, 0, hammerCard)})
	if p := after.Players[0]; p.Metal != 1 || p.Energy != 1 {
		t.Errorf("%d metal %d energy; want the revealed Robot's 1 and 1", p.Metal, p.Energy)
	}
	if got := names(after.Discard); !slices.Equal(got, []string{hammerCard}) || len(after.Deck) != 0 {
		t.Errorf("discard pile %v, deck %d; want the Robot back on the discard pile", got, len(after.Deck))
	}
}
