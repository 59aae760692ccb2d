package factories

import (
	"slices"
	"testing"
)

// delta is the change a move makes to seat 0.
type delta struct {
	Metal, Energy, Goods, Hand, Placed, Dice int
}

func deltaOf(before, after Player) delta {
	placed := func(p Player) int {
		n := 0
		for _, d := range p.Dice {
			if d.Placed {
				n++
			}
		}
		return n
	}
	return delta{
		Metal: after.Metal - before.Metal, Energy: after.Energy - before.Energy,
		Goods: after.Goods - before.Goods, Hand: len(after.Hand) - len(before.Hand),
		Placed: placed(after) - placed(before), Dice: len(after.Dice) - len(before.Dice),
	}
}

// TestBlueprintRecipes activates every activatable blueprint once and checks
// what it costs and gives, where its workers go and that it is then used.
func TestBlueprintRecipes(t *testing.T) {
	cases := []struct {
		name   string
		seat   seatSetup
		market []string
		deck   []string
		act    act
		want   delta
		check  func(t *testing.T, before, after State)
	}{
		{
			name: "Aluminum Factory: pair + 5 energy gives 2 goods and 1 metal",
			seat: seatSetup{Compound: []string{AluminumFactory}, Dice: []int{3, 5, 3, 1}, Energy: 6},
			act:  act{name: AluminumFactory, dice: []int{0, 2}},
			want: delta{Metal: 1, Energy: -5, Goods: 2, Placed: 2},
		},
		{
			name: "Assembly Line: three consecutive dice in any order give 2 goods",
			seat: seatSetup{Compound: []string{AssemblyLine}, Dice: []int{4, 2, 6, 3}},
			act:  act{name: AssemblyLine, dice: []int{0, 1, 3}},
			want: delta{Goods: 2, Placed: 3},
		},
		{
			name: "Assembly Line: 4, 5, 6",
			seat: seatSetup{Compound: []string{AssemblyLine}, Dice: []int{6, 5, 4, 4}},
			act:  act{name: AssemblyLine, dice: []int{2, 1, 0}},
			want: delta{Goods: 2, Placed: 3},
		},
		{
			name: "Battery Factory: 4 energy gives 1 good, no workers",
			seat: seatSetup{Compound: []string{BatteryFactory}, Dice: []int{1, 2, 3, 4}, Energy: 4},
			act:  act{name: BatteryFactory},
			want: delta{Energy: -4, Goods: 1},
		},
		{
			name: "Biolab: a 1 + 1 energy gives 1 good",
			seat: seatSetup{Compound: []string{Biolab}, Dice: []int{2, 1, 1, 6}, Energy: 1},
			act:  act{name: Biolab, dice: []int{1}},
			want: delta{Energy: -1, Goods: 1, Placed: 1},
		},
		{
			name: "Black Market: Obelisk's cost of 3 metal 1 energy",
			seat: seatSetup{Compound: []string{BlackMarket}, Hand: []string{Obelisk}, Dice: []int{5, 1, 1, 1}},
			act:  act{name: BlackMarket, dice: []int{0}, discard: []string{Obelisk}},
			want: delta{Metal: 3, Energy: 1, Hand: -1, Placed: 1},
		},
		{
			name: "Black Market: Golem's cost of 4 metal",
			seat: seatSetup{Compound: []string{BlackMarket}, Hand: []string{Golem}, Dice: []int{2, 1, 1, 1}},
			act:  act{name: BlackMarket, dice: []int{0}, discard: []string{Golem}},
			want: delta{Metal: 4, Hand: -1, Placed: 1},
		},
		{
			name: "Black Market: a card costing more than 4 gives the player's choice of 4",
			seat: seatSetup{Compound: []string{BlackMarket}, Hand: []string{Beacon}, Dice: []int{2, 1, 1, 1}},
			act:  act{name: BlackMarket, dice: []int{0}, discard: []string{Beacon}, metal: 1, energy: 3},
			want: delta{Metal: 1, Energy: 3, Hand: -1, Placed: 1},
		},
		{
			name: "Black Market: Megalith counts at its printed cost, whatever the discount",
			seat: seatSetup{Compound: []string{BlackMarket, Obelisk, Obelisk, Beacon}, Hand: []string{Megalith}, Dice: []int{2, 1, 1, 1}},
			act:  act{name: BlackMarket, dice: []int{0}, discard: []string{Megalith}, metal: 4},
			want: delta{Metal: 4, Hand: -1, Placed: 1},
		},
		{
			name: "Concrete Plant: a pair of 3s pays 3 metal for 2 goods",
			seat: seatSetup{Compound: []string{ConcretePlant}, Dice: []int{3, 3, 1, 1}, Metal: 3},
			act:  act{name: ConcretePlant, dice: []int{0, 1}},
			want: delta{Metal: -3, Goods: 2, Placed: 2},
		},
		{
			name: "Concrete Plant: a pair of 1s pays 1 metal for 2 goods",
			seat: seatSetup{Compound: []string{ConcretePlant}, Dice: []int{3, 3, 1, 1}, Metal: 1},
			act:  act{name: ConcretePlant, dice: []int{2, 3}},
			want: delta{Metal: -1, Goods: 2, Placed: 2},
		},
		{
			name: "Foundry: a 5 and 5 energy give 5 metal",
			seat: seatSetup{Compound: []string{Foundry}, Dice: []int{5, 1, 1, 1}, Energy: 5},
			act:  act{name: Foundry, dice: []int{0}},
			want: delta{Metal: 5, Energy: -5, Placed: 1},
		},
		{
			name: "Fulfillment Center: a 4 + 2 energy give 1 good and 1 metal",
			seat: seatSetup{Compound: []string{FulfillmentCenter}, Dice: []int{3, 4, 1, 1}, Energy: 2},
			act:  act{name: FulfillmentCenter, dice: []int{1}},
			want: delta{Metal: 1, Energy: -2, Goods: 1, Placed: 1},
		},
		{
			name: "Golem: 3 energy give an extra die showing 3",
			seat: seatSetup{Compound: []string{Golem}, Dice: []int{1, 1, 1, 1}, Energy: 3},
			act:  act{name: Golem, value: 3},
			want: delta{Energy: -3, Dice: 1},
			check: func(t *testing.T, _, after State) {
				d := after.Players[0].Dice[4]
				if d != (Die{Value: 3, Extra: true}) {
					t.Errorf("Golem's die is %+v; want an unplaced extra 3", d)
				}
			},
		},
		{
			name: "Harvester: a pair gives 4 metal",
			seat: seatSetup{Compound: []string{Harvester}, Dice: []int{6, 6, 1, 1}},
			act:  act{name: Harvester, dice: []int{0, 1}, choice: "metal"},
			want: delta{Metal: 4, Placed: 2},
		},
		{
			name: "Harvester: a pair gives 7 energy",
			seat: seatSetup{Compound: []string{Harvester}, Dice: []int{6, 6, 1, 1}},
			act:  act{name: Harvester, dice: []int{2, 3}, choice: "energy"},
			want: delta{Energy: 7, Placed: 2},
		},
		{
			name: "Incinerator: a blueprint and 1 metal give 6 energy",
			seat: seatSetup{Compound: []string{Incinerator}, Hand: []string{Robot}, Dice: []int{1, 1, 1, 1}, Metal: 1},
			act:  act{name: Incinerator, discard: []string{Robot}},
			want: delta{Metal: -1, Energy: 6, Hand: -1},
		},
		{
			name: "Manufactory: a pair gives 1 good and 2 metal",
			seat: seatSetup{Compound: []string{Manufactory}, Dice: []int{2, 2, 1, 1}},
			act:  act{name: Manufactory, dice: []int{0, 1}, choice: "metal"},
			want: delta{Metal: 2, Goods: 1, Placed: 2},
		},
		{
			name: "Manufactory: a pair gives 1 good and 3 energy",
			seat: seatSetup{Compound: []string{Manufactory}, Dice: []int{2, 2, 1, 1}},
			act:  act{name: Manufactory, dice: []int{2, 3}, choice: "energy"},
			want: delta{Energy: 3, Goods: 1, Placed: 2},
		},
		{
			name: "Manufactory: a pair gives 1 good and draws 2 from the deck",
			seat: seatSetup{Compound: []string{Manufactory}, Dice: []int{2, 2, 1, 1}},
			deck: []string{Obelisk, Dojo},
			act:  act{name: Manufactory, dice: []int{0, 1}, choice: "draw"},
			want: delta{Goods: 1, Hand: 2, Placed: 2},
			check: func(t *testing.T, _, after State) {
				if got := names(after.Players[0].Hand); !slices.Equal(got, []string{Obelisk, Dojo}) {
					t.Errorf("hand %v; want the top two cards of the deck", got)
				}
			},
		},
		{
			name: "Mega Factory: three of a kind give 2 goods and an extra die of the chosen value",
			seat: seatSetup{Compound: []string{MegaFactory}, Dice: []int{5, 5, 2, 5}},
			act:  act{name: MegaFactory, dice: []int{0, 1, 3}, value: 2},
			want: delta{Goods: 2, Placed: 3, Dice: 1},
			check: func(t *testing.T, _, after State) {
				if d := after.Players[0].Dice[4]; d != (Die{Value: 2, Extra: true}) {
					t.Errorf("Mega Factory's die is %+v; want an unplaced extra 2", d)
				}
			},
		},
		{
			name: "Motherlode: a 3 gives 1 metal",
			seat: seatSetup{Compound: []string{Motherlode}, Dice: []int{3, 4, 1, 1}},
			act:  act{name: Motherlode, dice: []int{0}},
			want: delta{Metal: 1, Placed: 1},
		},
		{
			name: "Motherlode: a 4 gives 2 metal",
			seat: seatSetup{Compound: []string{Motherlode}, Dice: []int{3, 4, 1, 1}},
			act:  act{name: Motherlode, dice: []int{1}},
			want: delta{Metal: 2, Placed: 1},
		},
		{
			name: "Nuclear Plant: a 6 gives 1 good and 1 energy",
			seat: seatSetup{Compound: []string{NuclearPlant}, Dice: []int{5, 6, 1, 1}},
			act:  act{name: NuclearPlant, dice: []int{1}},
			want: delta{Energy: 1, Goods: 1, Placed: 1},
		},
		{
			name: "Power Plant: a 5 gives 5 energy",
			seat: seatSetup{Compound: []string{PowerPlant}, Dice: []int{5, 6, 1, 1}},
			act:  act{name: PowerPlant, dice: []int{0}},
			want: delta{Energy: 5, Placed: 1},
		},
		{
			name: "Recycling Plant: 2 blueprints + 2 energy give 1 good and 1 draw",
			seat: seatSetup{Compound: []string{RecyclingPlant}, Hand: []string{Robot, Dojo, Obelisk}, Dice: []int{1, 1, 1, 1}, Energy: 2},
			deck: []string{Warehouse},
			act:  act{name: RecyclingPlant, discard: []string{Robot, Dojo}},
			want: delta{Energy: -2, Goods: 1, Hand: -1},
			check: func(t *testing.T, _, after State) {
				if got := names(after.Players[0].Hand); !slices.Equal(got, []string{Obelisk, Warehouse}) {
					t.Errorf("hand %v; want Obelisk and the drawn Warehouse", got)
				}
				if got := names(after.Discard); !slices.Equal(got, []string{Robot, Dojo}) {
					t.Errorf("discard pile %v; want Robot and Dojo", got)
				}
			},
		},
		{
			name: "Refinery: a blueprint and 3 energy give 3 metal",
			seat: seatSetup{Compound: []string{Refinery}, Hand: []string{Robot}, Dice: []int{1, 1, 1, 1}, Energy: 3},
			act:  act{name: Refinery, discard: []string{Robot}},
			want: delta{Metal: 3, Energy: -3, Hand: -1},
		},
		{
			name: "Robot: 1 metal rolls an extra die",
			seat: seatSetup{Compound: []string{Robot}, Dice: []int{1, 1, 1, 1}, Metal: 1},
			act:  act{name: Robot},
			want: delta{Metal: -1, Dice: 1},
			check: func(t *testing.T, before, after State) {
				r := before.RNG
				if d := after.Players[0].Dice[4]; d != (Die{Value: r.Die(), Extra: true}) {
					t.Errorf("Robot's die is %+v; want an extra die rolled from the state's RNG", d)
				}
			},
		},
		{
			name: "Trash Compactor: a pair and 2 blueprints give 2 goods",
			seat: seatSetup{Compound: []string{TrashCompactor}, Hand: []string{Robot, Robot}, Dice: []int{4, 4, 1, 1}},
			act:  act{name: TrashCompactor, dice: []int{0, 1}, discard: []string{Robot, Robot}},
			want: delta{Goods: 2, Hand: -2, Placed: 2},
		},
		{
			name: "Warehouse: three dice adding up to 14 give 2 goods and 2 energy",
			seat: seatSetup{Compound: []string{Warehouse}, Dice: []int{6, 5, 1, 3}},
			act:  act{name: Warehouse, dice: []int{0, 1, 3}},
			want: delta{Energy: 2, Goods: 2, Placed: 3},
		},
		{
			name: "Warehouse: 6 + 6 + 6",
			seat: seatSetup{Compound: []string{Warehouse}, Dice: []int{6, 6, 6, 3}},
			act:  act{name: Warehouse, dice: []int{0, 1, 2}},
			want: delta{Energy: 2, Goods: 2, Placed: 3},
		},
		{
			name: "Concrete Plant: a pair of 6s pays 6 metal, still 2 goods",
			seat: seatSetup{Compound: []string{ConcretePlant}, Dice: []int{6, 1, 6, 1}, Metal: 7},
			act:  act{name: ConcretePlant, dice: []int{0, 2}},
			want: delta{Metal: -6, Goods: 2, Placed: 2},
		},
		{
			name: "Motherlode: a 6 gives 2 metal",
			seat: seatSetup{Compound: []string{Motherlode}, Dice: []int{6}},
			act:  act{name: Motherlode, dice: []int{0}},
			want: delta{Metal: 2, Placed: 1},
		},
		{
			name: "Motherlode: a 1 gives 1 metal",
			seat: seatSetup{Compound: []string{Motherlode}, Dice: []int{1}},
			act:  act{name: Motherlode, dice: []int{0}},
			want: delta{Metal: 1, Placed: 1},
		},
		{
			name: "Foundry: a 1 and 1 energy give 1 metal",
			seat: seatSetup{Compound: []string{Foundry}, Dice: []int{1}, Energy: 1},
			act:  act{name: Foundry, dice: []int{0}},
			want: delta{Metal: 1, Energy: -1, Placed: 1},
		},
		{
			name: "Golem: 6 energy give an extra 6",
			seat: seatSetup{Compound: []string{Golem}, Energy: 6},
			act:  act{name: Golem, value: 6},
			want: delta{Energy: -6, Dice: 1},
		},
		{
			name: "Black Market: Fitness Center's cost of 1 metal",
			seat: seatSetup{Compound: []string{BlackMarket}, Hand: []string{FitnessCenter}, Dice: []int{6}},
			act:  act{name: BlackMarket, dice: []int{0}, discard: []string{FitnessCenter}},
			want: delta{Metal: 1, Hand: -1, Placed: 1},
		},
		{
			name: "Black Market: Megalith's printed cost, the most energy it allows",
			seat: seatSetup{Compound: []string{BlackMarket}, Hand: []string{Megalith}, Dice: []int{6}},
			act:  act{name: BlackMarket, dice: []int{0}, discard: []string{Megalith}, metal: 2, energy: 2},
			want: delta{Metal: 2, Energy: 2, Hand: -1, Placed: 1},
		},
		{
			name:   "Replicator copies Gymnasium: trains an unplaced die, no worker",
			seat:   seatSetup{Compound: []string{Replicator}, Dice: []int{3, 5}, Energy: 2},
			market: []string{Gymnasium},
			act:    act{name: Replicator, slot: 0, dice: []int{1}},
			want:   delta{Energy: -2},
			check: func(t *testing.T, _, after State) {
				p := after.Players[0]
				if got := diceValues(p); !slices.Equal(got, []int{3, 6}) || p.Dice[1].Placed {
					t.Errorf("dice %v (%+v); want the 5 raised to an unplaced 6", got, p.Dice[1])
				}
				if b := building(t, after, 0, one(Replicator)); b.Copied != Gymnasium || len(b.Dice) != 0 {
					t.Errorf("Replicator %+v; want a Gymnasium copy with no workers", b)
				}
			},
		},
		{
			name:   "Replicator copies Robot: 1 energy and 1 metal for an extra die",
			seat:   seatSetup{Compound: []string{Replicator}, Dice: []int{3}, Metal: 1, Energy: 1},
			market: []string{Robot},
			act:    act{name: Replicator, slot: 0},
			want:   delta{Metal: -1, Energy: -1, Dice: 1},
		},
		{
			name:   "Replicator copies Mega Factory: the three go on Replicator, the extra die comes",
			seat:   seatSetup{Compound: []string{Replicator}, Dice: []int{2, 2, 2, 5}, Energy: 1},
			market: []string{Obelisk, MegaFactory},
			act:    act{name: Replicator, slot: 1, dice: []int{0, 1, 2}, value: 6},
			want:   delta{Energy: -1, Goods: 2, Placed: 3, Dice: 1},
		},
		{
			name:   "Replicator copies Concrete Plant: pays the pair's value in metal",
			seat:   seatSetup{Compound: []string{Replicator}, Dice: []int{4, 4}, Metal: 4, Energy: 1},
			market: []string{ConcretePlant},
			act:    act{name: Replicator, slot: 0, dice: []int{0, 1}},
			want:   delta{Metal: -4, Energy: -1, Goods: 2, Placed: 2},
		},
		{
			name:   "Replicator copies the marketplace's Biolab: 1 energy + Biolab's cost",
			seat:   seatSetup{Compound: []string{Replicator}, Dice: []int{1, 2, 2, 2}, Energy: 2},
			market: []string{Obelisk, Biolab},
			act:    act{name: Replicator, slot: 1, dice: []int{0}},
			want:   delta{Energy: -2, Goods: 1, Placed: 1},
			check: func(t *testing.T, before, after State) {
				if b := building(t, after, 0, one(Replicator)); b.Copied != Biolab {
					t.Errorf("Replicator copied %q; want Biolab", b.Copied)
				}
				if after.Market != before.Market {
					t.Errorf("copying changed the marketplace")
				}
			},
		},
		{
			name:   "Replicator copies Golem: 1 energy + X",
			seat:   seatSetup{Compound: []string{Replicator}, Dice: []int{1, 2, 2, 2}, Energy: 5},
			market: []string{Golem},
			act:    act{name: Replicator, slot: 0, value: 4},
			want:   delta{Energy: -5, Dice: 1},
		},
		{
			name:   "Replicator copies Harvester: the pair lands on Replicator",
			seat:   seatSetup{Compound: []string{Replicator, Harvester}, Dice: []int{3, 3, 2, 2}, Energy: 1},
			market: []string{Dojo, Obelisk, Laboratory, Harvester},
			act:    act{name: Replicator, slot: 3, dice: []int{0, 1}, choice: "metal"},
			want:   delta{Metal: 4, Energy: -1, Placed: 2},
			check: func(t *testing.T, _, after State) {
				if b := building(t, after, 0, one(Harvester)); b.Used {
					t.Errorf("copying Harvester used the player's own Harvester")
				}
			},
		},
		{
			name:   "Replicator copies Black Market: 1 energy, discard, gains",
			seat:   seatSetup{Compound: []string{Replicator}, Hand: []string{Obelisk}, Dice: []int{3, 3, 2, 2}, Energy: 1},
			market: []string{BlackMarket},
			act:    act{name: Replicator, slot: 0, dice: []int{2}, discard: []string{Obelisk}},
			want:   delta{Metal: 3, Energy: 0, Hand: -1, Placed: 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := table{Seats: []seatSetup{tc.seat}, Market: tc.market, Deck: tc.deck}.build(t)
			m := tc.act.on(t, s)
			if !hasLegal(t, s, 0, m) {
				t.Errorf("%+v is not among the legal moves", m)
			}
			after, events := mustApply(t, s, 0, m)
			if got := deltaOf(s.Players[0], after.Players[0]); got != tc.want {
				t.Errorf("change %+v; want %+v", got, tc.want)
			}
			host := building(t, after, 0, m.Card)
			if !host.Used {
				t.Errorf("%s is not marked used after activation", m.Card.Name())
			}
			var used []int
			for _, i := range m.Dice {
				used = append(used, s.Players[0].Dice[i].Value)
			}
			if tc.want.Placed > 0 && !slices.Equal(host.Dice, used) {
				t.Errorf("workers on %s are %v; want %v", m.Card.Name(), host.Dice, used)
			}
			if len(events) == 0 {
				t.Errorf("activation emitted no event")
			}
			if !sameCards(after.Discard, append(slices.Clone(s.Discard), m.Discard...)) {
				t.Errorf("discard pile %v; want the discarded %v added", names(after.Discard), names(m.Discard))
			}
			if after.Players[1].Metal != 0 || len(after.Players[1].Hand) != 0 {
				t.Errorf("the other seat changed: %+v", after.Players[1])
			}
			if tc.check != nil {
				tc.check(t, s, after)
			}
			mustRefuse(t, after, 0, m, "already activated this round")
		})
	}
}

// TestTrainingCards checks Dojo, Fitness Center, Gymnasium and Temp Agency:
// 1 energy, an unplaced die changes, nothing is placed.
func TestTrainingCards(t *testing.T) {
	cases := []struct {
		card      string
		from, to  int
		otherDice []int
	}{
		{Dojo, 1, 6, nil}, {Dojo, 6, 1, nil}, {Dojo, 2, 5, nil}, {Dojo, 5, 2, nil}, {Dojo, 3, 4, nil}, {Dojo, 4, 3, nil},
		{FitnessCenter, 6, 5, nil}, {FitnessCenter, 2, 1, nil},
		{Gymnasium, 1, 2, nil}, {Gymnasium, 5, 6, nil},
	}
	for _, tc := range cases {
		t.Run(tc.card, func(t *testing.T) {
			s := table{Seats: []seatSetup{{Compound: []string{tc.card}, Dice: []int{3, tc.from, 3, 3}, Energy: 1}}}.build(t)
			after, _ := mustApply(t, s, 0, act{name: tc.card, dice: []int{1}}.on(t, s))
			p := after.Players[0]
			if got := diceValues(p); !slices.Equal(got, []int{3, tc.to, 3, 3}) {
				t.Errorf("%s on a %d: dice %v; want the die at %d", tc.card, tc.from, got, tc.to)
			}
			if p.Dice[1].Placed {
				t.Errorf("a training card placed the die")
			}
			if p.Energy != 0 {
				t.Errorf("energy %d; want 1 paid", p.Energy)
			}
			if b := building(t, after, 0, one(tc.card)); !b.Used || len(b.Dice) != 0 {
				t.Errorf("%s after use: %+v; want used with no workers", tc.card, b)
			}
			// The trained die is still a worker to place.
			mustApply(t, after, 0, Move{Kind: Place, Dice: []int{1}, Action: Research})
		})
	}
	t.Run("Temp Agency rerolls several dice for 1 energy", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Compound: []string{TempAgency}, Dice: []int{1, 2, 3, 4}, Energy: 1}}}.build(t)
		after, _ := mustApply(t, s, 0, act{name: TempAgency, dice: []int{0, 2, 3}}.on(t, s))
		r := s.RNG
		want := []int{r.Die(), 2, r.Die(), r.Die()}
		if got := diceValues(after.Players[0]); !slices.Equal(got, want) {
			t.Errorf("dice %v; want %v (dice 1, 3, 4 rerolled from the state's RNG)", got, want)
		}
		if after.Players[0].Energy != 0 {
			t.Errorf("energy %d; want 1 paid", after.Players[0].Energy)
		}
		for _, d := range after.Players[0].Dice {
			if d.Placed {
				t.Errorf("Temp Agency placed a die")
			}
		}
	})
	t.Run("training needs an unplaced die", func(t *testing.T) {
		for _, card := range []string{Dojo, FitnessCenter, Gymnasium, TempAgency} {
			s := table{Seats: []seatSetup{{Compound: []string{card}, Dice: []int{3, 3, 3, 3}, Energy: 2}}}.build(t)
			s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{0}, Action: Research})
			mustRefuse(t, s, 0, act{name: card, dice: []int{0}}.on(t, s), "already placed")
		}
	})
}

// TestBlueprintRefusals checks each recipe's conditions.
func TestBlueprintRefusals(t *testing.T) {
	cases := []struct {
		name   string
		seat   seatSetup
		market []string
		act    act
		want   string
	}{
		{"Aluminum Factory unmatched", seatSetup{Compound: []string{AluminumFactory}, Dice: []int{3, 4}, Energy: 5}, nil, act{name: AluminumFactory, dice: []int{0, 1}}, "2 matching dice"},
		{"Aluminum Factory one die", seatSetup{Compound: []string{AluminumFactory}, Dice: []int{3, 3}, Energy: 5}, nil, act{name: AluminumFactory, dice: []int{0}}, "2 matching dice"},
		{"Aluminum Factory short of energy", seatSetup{Compound: []string{AluminumFactory}, Dice: []int{3, 3}, Energy: 4}, nil, act{name: AluminumFactory, dice: []int{0, 1}}, "needs 5 energy"},
		{"Assembly Line gap", seatSetup{Compound: []string{AssemblyLine}, Dice: []int{1, 2, 4}}, nil, act{name: AssemblyLine, dice: []int{0, 1, 2}}, "in a run"},
		{"Assembly Line repeat", seatSetup{Compound: []string{AssemblyLine}, Dice: []int{2, 2, 3}}, nil, act{name: AssemblyLine, dice: []int{0, 1, 2}}, "in a run"},
		{"Assembly Line two dice", seatSetup{Compound: []string{AssemblyLine}, Dice: []int{2, 3}}, nil, act{name: AssemblyLine, dice: []int{0, 1}}, "in a run"},
		{"Battery Factory short of energy", seatSetup{Compound: []string{BatteryFactory}, Energy: 3}, nil, act{name: BatteryFactory}, "needs 4 energy"},
		{"Battery Factory takes no dice", seatSetup{Compound: []string{BatteryFactory}, Dice: []int{1}, Energy: 4}, nil, act{name: BatteryFactory, dice: []int{0}}, "no dice"},
		{"Biolab needs a 1", seatSetup{Compound: []string{Biolab}, Dice: []int{2}, Energy: 1}, nil, act{name: Biolab, dice: []int{0}}, "showing 1"},
		{"Biolab short of energy", seatSetup{Compound: []string{Biolab}, Dice: []int{1}}, nil, act{name: Biolab, dice: []int{0}}, "needs 1 energy"},
		{"Black Market without a discard", seatSetup{Compound: []string{BlackMarket}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}}, "one blueprint"},
		{"Black Market with two discards", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Robot, Dojo}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Robot, Dojo}}, "one blueprint"},
		{"Black Market without a die", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Robot}, Dice: []int{1}}, nil, act{name: BlackMarket, discard: []string{Robot}}, "one die"},
		{"Black Market over 4: more metal than printed", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Beacon}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Beacon}, metal: 3, energy: 1}, "choose 4"},
		{"Black Market over 4: more than 4", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Beacon}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Beacon}, metal: 2, energy: 3}, "choose 4"},
		{"Black Market over 4: fewer than 4", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Beacon}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Beacon}, metal: 1, energy: 2}, "choose 4"},
		{"Black Market over 4: no choice", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Megalith}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Megalith}}, "choose 4"},
		{"Concrete Plant short of metal", seatSetup{Compound: []string{ConcretePlant}, Dice: []int{3, 3}, Metal: 2}, nil, act{name: ConcretePlant, dice: []int{0, 1}}, "needs 3 metal"},
		{"Concrete Plant unmatched", seatSetup{Compound: []string{ConcretePlant}, Dice: []int{5, 6}, Metal: 9}, nil, act{name: ConcretePlant, dice: []int{0, 1}}, "2 matching dice"},
		{"Dojo short of energy", seatSetup{Compound: []string{Dojo}, Dice: []int{3}}, nil, act{name: Dojo, dice: []int{0}}, "needs 1 energy"},
		{"Dojo two dice", seatSetup{Compound: []string{Dojo}, Dice: []int{3, 4}, Energy: 1}, nil, act{name: Dojo, dice: []int{0, 1}}, "one unplaced die"},
		{"Dojo no die", seatSetup{Compound: []string{Dojo}, Dice: []int{3, 4}, Energy: 1}, nil, act{name: Dojo}, "one unplaced die"},
		{"Fitness Center on a 1", seatSetup{Compound: []string{FitnessCenter}, Dice: []int{1}, Energy: 1}, nil, act{name: FitnessCenter, dice: []int{0}}, "cannot lower a 1"},
		{"Fitness Center short of energy", seatSetup{Compound: []string{FitnessCenter}, Dice: []int{4}}, nil, act{name: FitnessCenter, dice: []int{0}}, "needs 1 energy"},
		{"Foundry short of energy", seatSetup{Compound: []string{Foundry}, Dice: []int{5}, Energy: 4}, nil, act{name: Foundry, dice: []int{0}}, "needs 5 energy"},
		{"Fulfillment Center needs a 4", seatSetup{Compound: []string{FulfillmentCenter}, Dice: []int{3}, Energy: 2}, nil, act{name: FulfillmentCenter, dice: []int{0}}, "showing 4"},
		{"Fulfillment Center short of energy", seatSetup{Compound: []string{FulfillmentCenter}, Dice: []int{4}, Energy: 1}, nil, act{name: FulfillmentCenter, dice: []int{0}}, "needs 2 energy"},
		{"Golem value 0", seatSetup{Compound: []string{Golem}, Energy: 9}, nil, act{name: Golem}, "1 to 6"},
		{"Golem value 7", seatSetup{Compound: []string{Golem}, Energy: 9}, nil, act{name: Golem, value: 7}, "1 to 6"},
		{"Golem short of energy", seatSetup{Compound: []string{Golem}, Energy: 2}, nil, act{name: Golem, value: 3}, "needs 3 energy"},
		{"Golem takes no dice", seatSetup{Compound: []string{Golem}, Dice: []int{3}, Energy: 3}, nil, act{name: Golem, dice: []int{0}, value: 3}, "no dice"},
		{"Gymnasium on a 6", seatSetup{Compound: []string{Gymnasium}, Dice: []int{6}, Energy: 1}, nil, act{name: Gymnasium, dice: []int{0}}, "cannot raise a 6"},
		{"Gymnasium short of energy", seatSetup{Compound: []string{Gymnasium}, Dice: []int{2}}, nil, act{name: Gymnasium, dice: []int{0}}, "needs 1 energy"},
		{"Harvester without a choice", seatSetup{Compound: []string{Harvester}, Dice: []int{2, 2}}, nil, act{name: Harvester, dice: []int{0, 1}}, "choose metal and energy"},
		{"Harvester cannot draw", seatSetup{Compound: []string{Harvester}, Dice: []int{2, 2}}, nil, act{name: Harvester, dice: []int{0, 1}, choice: "draw"}, "choose metal and energy"},
		{"Harvester unmatched", seatSetup{Compound: []string{Harvester}, Dice: []int{2, 3}}, nil, act{name: Harvester, dice: []int{0, 1}, choice: "metal"}, "2 matching dice"},
		{"Incinerator short of metal", seatSetup{Compound: []string{Incinerator}, Hand: []string{Robot}}, nil, act{name: Incinerator, discard: []string{Robot}}, "needs 1 metal"},
		{"Incinerator without a discard", seatSetup{Compound: []string{Incinerator}, Metal: 1}, nil, act{name: Incinerator}, "needs 1 blueprint"},
		{"Incinerator with two discards", seatSetup{Compound: []string{Incinerator}, Hand: []string{Robot, Dojo}, Metal: 1}, nil, act{name: Incinerator, discard: []string{Robot, Dojo}}, "needs 1 blueprint"},
		{"Manufactory bad choice", seatSetup{Compound: []string{Manufactory}, Dice: []int{2, 2}}, nil, act{name: Manufactory, dice: []int{0, 1}, choice: "goods"}, "choose metal, energy and draw"},
		{"Manufactory unmatched", seatSetup{Compound: []string{Manufactory}, Dice: []int{2, 1}}, nil, act{name: Manufactory, dice: []int{0, 1}, choice: "metal"}, "2 matching dice"},
		{"Mega Factory not three alike", seatSetup{Compound: []string{MegaFactory}, Dice: []int{5, 5, 4}}, nil, act{name: MegaFactory, dice: []int{0, 1, 2}, value: 3}, "3 matching dice"},
		{"Mega Factory pair only", seatSetup{Compound: []string{MegaFactory}, Dice: []int{5, 5}}, nil, act{name: MegaFactory, dice: []int{0, 1}, value: 3}, "3 matching dice"},
		{"Mega Factory no value", seatSetup{Compound: []string{MegaFactory}, Dice: []int{5, 5, 5}}, nil, act{name: MegaFactory, dice: []int{0, 1, 2}}, "1 to 6"},
		{"Motherlode without a die", seatSetup{Compound: []string{Motherlode}, Dice: []int{5}}, nil, act{name: Motherlode}, "one die"},
		{"Nuclear Plant needs a 6", seatSetup{Compound: []string{NuclearPlant}, Dice: []int{5}}, nil, act{name: NuclearPlant, dice: []int{0}}, "showing 6"},
		{"Power Plant two dice", seatSetup{Compound: []string{PowerPlant}, Dice: []int{5, 4}}, nil, act{name: PowerPlant, dice: []int{0, 1}}, "one die"},
		{"Recycling Plant one discard", seatSetup{Compound: []string{RecyclingPlant}, Hand: []string{Robot}, Energy: 2}, nil, act{name: RecyclingPlant, discard: []string{Robot}}, "needs 2 blueprints"},
		{"Recycling Plant short of energy", seatSetup{Compound: []string{RecyclingPlant}, Hand: []string{Robot, Dojo}, Energy: 1}, nil, act{name: RecyclingPlant, discard: []string{Robot, Dojo}}, "needs 2 energy"},
		{"Refinery short of energy", seatSetup{Compound: []string{Refinery}, Hand: []string{Robot}, Energy: 2}, nil, act{name: Refinery, discard: []string{Robot}}, "needs 3 energy"},
		{"Refinery two discards", seatSetup{Compound: []string{Refinery}, Hand: []string{Robot, Dojo}, Energy: 3}, nil, act{name: Refinery, discard: []string{Robot, Dojo}}, "needs 1 blueprint"},
		{"Robot short of metal", seatSetup{Compound: []string{Robot}, Energy: 5}, nil, act{name: Robot}, "needs 1 metal"},
		{"Temp Agency without dice", seatSetup{Compound: []string{TempAgency}, Dice: []int{1}, Energy: 1}, nil, act{name: TempAgency}, "at least one"},
		{"Temp Agency short of energy", seatSetup{Compound: []string{TempAgency}, Dice: []int{1}}, nil, act{name: TempAgency, dice: []int{0}}, "needs 1 energy"},
		{"Trash Compactor one discard", seatSetup{Compound: []string{TrashCompactor}, Hand: []string{Robot}, Dice: []int{2, 2}}, nil, act{name: TrashCompactor, dice: []int{0, 1}, discard: []string{Robot}}, "needs 2 blueprints"},
		{"Trash Compactor unmatched", seatSetup{Compound: []string{TrashCompactor}, Hand: []string{Robot, Dojo}, Dice: []int{2, 3}}, nil, act{name: TrashCompactor, dice: []int{0, 1}, discard: []string{Robot, Dojo}}, "2 matching dice"},
		{"Warehouse adds to 13", seatSetup{Compound: []string{Warehouse}, Dice: []int{6, 5, 2}}, nil, act{name: Warehouse, dice: []int{0, 1, 2}}, "14 or more"},
		{"Warehouse two dice", seatSetup{Compound: []string{Warehouse}, Dice: []int{6, 6}}, nil, act{name: Warehouse, dice: []int{0, 1}}, "14 or more"},
		{"Laboratory is passive", seatSetup{Compound: []string{Laboratory}}, nil, act{name: Laboratory}, "no recipe"},
		{"Scrap Yard is passive", seatSetup{Compound: []string{ScrapYard}}, nil, act{name: ScrapYard}, "no recipe"},
		{"Solar Array is passive", seatSetup{Compound: []string{SolarArray}}, nil, act{name: SolarArray}, "no recipe"},
		{"Obelisk has no recipe", seatSetup{Compound: []string{Obelisk}}, nil, act{name: Obelisk}, "no recipe"},
		{"Beacon has no recipe", seatSetup{Compound: []string{Beacon}}, nil, act{name: Beacon}, "no recipe"},
		{"Megalith has no recipe", seatSetup{Compound: []string{Megalith}}, nil, act{name: Megalith}, "no recipe"},
		{"a die number out of range", seatSetup{Compound: []string{PowerPlant}, Dice: []int{5}}, nil, act{name: PowerPlant, dice: []int{4}}, "no die number 5"},
		{"a negative die number", seatSetup{Compound: []string{PowerPlant}, Dice: []int{5}}, nil, act{name: PowerPlant, dice: []int{-1}}, "no die number"},
		{"the same die twice", seatSetup{Compound: []string{Harvester}, Dice: []int{5, 4}}, nil, act{name: Harvester, dice: []int{0, 0}, choice: "metal"}, "only once"},
		{"Replicator short of energy", seatSetup{Compound: []string{Replicator}, Dice: []int{4}}, []string{PowerPlant}, act{name: Replicator, dice: []int{0}}, "Replicator costs 1 energy"},
		{"Replicator cannot pay the copied cost", seatSetup{Compound: []string{Replicator}, Dice: []int{1}, Energy: 1}, []string{Biolab}, act{name: Replicator, dice: []int{0}}, "Biolab needs 1 energy"},
		{"Replicator copies by the copied card's rules", seatSetup{Compound: []string{Replicator}, Dice: []int{2}, Energy: 2}, []string{Biolab}, act{name: Replicator, dice: []int{0}}, "showing 1"},
		{"Replicator refuses a Monument", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{Obelisk}, act{name: Replicator}, "cannot copy Obelisk"},
		{"Replicator refuses a passive card", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{Laboratory}, act{name: Replicator}, "cannot copy Laboratory"},
		{"Replicator refuses Scrap Yard", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{ScrapYard}, act{name: Replicator}, "cannot copy Scrap Yard"},
		{"Replicator refuses Replicator", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{Replicator}, act{name: Replicator}, "cannot copy Replicator"},
		{"Replicator refuses an empty slot", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{PowerPlant}, act{name: Replicator, slot: 2}, "needs a blueprint in that marketplace slot"},
		{"Biolab two dice", seatSetup{Compound: []string{Biolab}, Dice: []int{1, 1}, Energy: 1}, nil, act{name: Biolab, dice: []int{0, 1}}, "showing 1"},
		{"Fulfillment Center a 3 (the English text's misprint)", seatSetup{Compound: []string{FulfillmentCenter}, Dice: []int{3}, Energy: 2}, nil, act{name: FulfillmentCenter, dice: []int{0}}, "showing 4"},
		{"Nuclear Plant without a die", seatSetup{Compound: []string{NuclearPlant}, Dice: []int{6}}, nil, act{name: NuclearPlant}, "showing 6"},
		{"Foundry without a die", seatSetup{Compound: []string{Foundry}, Dice: []int{3}, Energy: 3}, nil, act{name: Foundry}, "one die"},
		{"Power Plant without a die", seatSetup{Compound: []string{PowerPlant}, Dice: []int{3}}, nil, act{name: PowerPlant}, "one die"},
		{"Motherlode two dice", seatSetup{Compound: []string{Motherlode}, Dice: []int{3, 4}}, nil, act{name: Motherlode, dice: []int{0, 1}}, "one die"},
		{"Mega Factory value 7", seatSetup{Compound: []string{MegaFactory}, Dice: []int{5, 5, 5}}, nil, act{name: MegaFactory, dice: []int{0, 1, 2}, value: 7}, "1 to 6"},
		{"Mega Factory four alike", seatSetup{Compound: []string{MegaFactory}, Dice: []int{5, 5, 5, 5}}, nil, act{name: MegaFactory, dice: []int{0, 1, 2, 3}, value: 3}, "3 matching dice"},
		{"Harvester three alike", seatSetup{Compound: []string{Harvester}, Dice: []int{2, 2, 2}}, nil, act{name: Harvester, dice: []int{0, 1, 2}, choice: "metal"}, "2 matching dice"},
		{"Concrete Plant short of metal for 6s", seatSetup{Compound: []string{ConcretePlant}, Dice: []int{6, 6}, Metal: 5}, nil, act{name: ConcretePlant, dice: []int{0, 1}}, "needs 6 metal"},
		{"Aluminum Factory without dice", seatSetup{Compound: []string{AluminumFactory}, Energy: 5}, nil, act{name: AluminumFactory}, "2 matching dice"},
		{"Assembly Line four dice", seatSetup{Compound: []string{AssemblyLine}, Dice: []int{1, 2, 3, 4}}, nil, act{name: AssemblyLine, dice: []int{0, 1, 2, 3}}, "in a run"},
		{"Assembly Line wraps no corner", seatSetup{Compound: []string{AssemblyLine}, Dice: []int{5, 6, 1}}, nil, act{name: AssemblyLine, dice: []int{0, 1, 2}}, "in a run"},
		{"Warehouse four dice", seatSetup{Compound: []string{Warehouse}, Dice: []int{6, 6, 1, 1}}, nil, act{name: Warehouse, dice: []int{0, 1, 2, 3}}, "14 or more"},
		{"Trash Compactor without discards", seatSetup{Compound: []string{TrashCompactor}, Dice: []int{2, 2}}, nil, act{name: TrashCompactor, dice: []int{0, 1}}, "needs 2 blueprints"},
		{"Trash Compactor three discards", seatSetup{Compound: []string{TrashCompactor}, Hand: []string{Robot, Dojo, Golem}, Dice: []int{2, 2}}, nil, act{name: TrashCompactor, dice: []int{0, 1}, discard: []string{Robot, Dojo, Golem}}, "needs 2 blueprints"},
		{"Recycling Plant three discards", seatSetup{Compound: []string{RecyclingPlant}, Hand: []string{Robot, Dojo, Golem}, Energy: 2}, nil, act{name: RecyclingPlant, discard: []string{Robot, Dojo, Golem}}, "needs 2 blueprints"},
		{"Recycling Plant takes no dice", seatSetup{Compound: []string{RecyclingPlant}, Hand: []string{Robot, Dojo}, Dice: []int{1}, Energy: 2}, nil, act{name: RecyclingPlant, dice: []int{0}, discard: []string{Robot, Dojo}}, "no dice"},
		{"Refinery without a discard", seatSetup{Compound: []string{Refinery}, Energy: 3}, nil, act{name: Refinery}, "needs 1 blueprint"},
		{"Refinery takes no dice", seatSetup{Compound: []string{Refinery}, Hand: []string{Robot}, Dice: []int{1}, Energy: 3}, nil, act{name: Refinery, dice: []int{0}, discard: []string{Robot}}, "no dice"},
		{"Incinerator takes no dice", seatSetup{Compound: []string{Incinerator}, Hand: []string{Robot}, Dice: []int{1}, Metal: 1}, nil, act{name: Incinerator, dice: []int{0}, discard: []string{Robot}}, "no dice"},
		{"Robot takes no dice", seatSetup{Compound: []string{Robot}, Dice: []int{1}, Metal: 1}, nil, act{name: Robot, dice: []int{0}}, "no dice"},
		{"Black Market on Megalith: more energy than printed", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Megalith}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Megalith}, metal: 1, energy: 3}, "choose 4"},
		{"Black Market a negative split", seatSetup{Compound: []string{BlackMarket}, Hand: []string{Megalith}, Dice: []int{1}}, nil, act{name: BlackMarket, dice: []int{0}, discard: []string{Megalith}, metal: 5, energy: -1}, "choose 4"},
		{"Black Market a card from the marketplace", seatSetup{Compound: []string{BlackMarket}, Dice: []int{1}}, []string{Obelisk}, act{name: BlackMarket, dice: []int{0}}, "one blueprint"},
		{"Golem short of energy for a 6", seatSetup{Compound: []string{Golem}, Energy: 5}, nil, act{name: Golem, value: 6}, "needs 6 energy"},
		{"Replicator copies Megalith", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{Megalith}, act{name: Replicator}, "cannot copy Megalith"},
		{"Replicator copies Beacon", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{Beacon}, act{name: Replicator}, "cannot copy Beacon"},
		{"Replicator copies Solar Array", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{SolarArray}, act{name: Replicator}, "cannot copy Solar Array"},
		{"Replicator cannot pay 1 + Aluminum Factory's 5", seatSetup{Compound: []string{Replicator}, Dice: []int{3, 3}, Energy: 5}, []string{AluminumFactory}, act{name: Replicator, dice: []int{0, 1}}, "Aluminum Factory needs 5 energy"},
		{"Replicator copying Fitness Center on a 1", seatSetup{Compound: []string{Replicator}, Dice: []int{1}, Energy: 2}, []string{FitnessCenter}, act{name: Replicator, dice: []int{0}}, "cannot lower a 1"},
		{"Replicator refuses a slot out of range", seatSetup{Compound: []string{Replicator}, Energy: 2}, []string{PowerPlant}, act{name: Replicator, slot: 4}, "numbered 0 to 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := table{Seats: []seatSetup{tc.seat}, Market: tc.market}.build(t)
			m := tc.act.on(t, s)
			mustRefuse(t, s, 0, m, tc.want)
			if hasLegal(t, s, 0, m) {
				t.Errorf("refused move %+v is listed as legal", m)
			}
		})
	}
}

func TestActivationNeedsOwnBuildingAndOwnCards(t *testing.T) {
	s := table{
		Seats: []seatSetup{
			{Hand: []string{PowerPlant, Robot}, Compound: []string{Incinerator}, Dice: []int{5}, Metal: 1},
			{Hand: []string{Dojo}, Compound: []string{Harvester}, Dice: []int{5, 5}},
		},
	}.build(t)
	mustRefuse(t, s, 0, Move{Kind: Activate, Card: inHand(t, s, 0, PowerPlant)[0], Dice: []int{0}}, "only activate a card in your compound")
	mustRefuse(t, s, 0, Move{Kind: Activate, Card: inCompound(t, s, 1, Harvester), Dice: []int{0}, Choice: "metal"}, "only activate a card in your compound")
	mustRefuse(t, s, 0, Move{Kind: Activate, Card: Card(999)}, "only activate a card in your compound")
	// Discarding another seat's card, or the same card twice.
	inc := inCompound(t, s, 0, Incinerator)
	mustRefuse(t, s, 0, Move{Kind: Activate, Card: inc, Discard: inHand(t, s, 1, Dojo)}, "not in your hand")
	mustRefuse(t, s, 0, Move{Kind: Activate, Card: inc, Discard: []Card{Card(-5)}}, "not in your hand")
	s.Players[0].Compound = append(s.Players[0].Compound, Building{Card: one(TrashCompactor)})
	s.Deck = slices.DeleteFunc(s.Deck, func(c Card) bool { return c == one(TrashCompactor) })
	s.Players[0].Dice = []Die{{Value: 2}, {Value: 2}}
	robot := inHand(t, s, 0, Robot)[0]
	mustRefuse(t, s, 0, Move{Kind: Activate, Card: one(TrashCompactor), Dice: []int{0, 1}, Discard: []Card{robot, robot}}, "not in your hand")
}

func TestReplicatorIsItsOwnActivation(t *testing.T) {
	s := table{
		Seats:  []seatSetup{{Compound: []string{Replicator, PowerPlant}, Dice: []int{5, 4, 3, 2}, Energy: 2}},
		Market: []string{PowerPlant, Biolab},
	}.build(t)
	// The own Power Plant and a copied one are separate activations.
	s, _ = mustApply(t, s, 0, act{name: PowerPlant, dice: []int{0}}.on(t, s))
	s, _ = mustApply(t, s, 0, act{name: Replicator, slot: 0, dice: []int{1}}.on(t, s))
	if p := s.Players[0]; p.Energy != 2+5-1+4 {
		t.Errorf("energy %d; want 2 + 5 - 1 + 4", p.Energy)
	}
	rep := building(t, s, 0, one(Replicator))
	if !rep.Used || !slices.Equal(rep.Dice, []int{4}) || rep.Copied != PowerPlant {
		t.Errorf("Replicator %+v; want used, copying Power Plant with the 4 on it", rep)
	}
	// A Replicator that was used cannot copy anything else this round.
	mustRefuse(t, s, 0, act{name: Replicator, slot: 0, dice: []int{2}}.on(t, s), "already activated this round")
	// The copy is cleared at the end of the round.
	s.Players[1].Done = true
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	if rep := building(t, s, 0, one(Replicator)); rep.Used || rep.Copied != "" || len(rep.Dice) != 0 {
		t.Errorf("Replicator after the round: %+v; want reset", rep)
	}
}

func TestLaboratoryDrawsOncePerRound(t *testing.T) {
	s := table{
		Seats: []seatSetup{{Compound: []string{Laboratory, Biolab, BatteryFactory, NuclearPlant},
			Dice: []int{1, 6, 2, 2}, Energy: 5}},
		Deck: []string{Obelisk, Dojo, Robot},
	}.build(t)
	s, _ = mustApply(t, s, 0, act{name: Biolab, dice: []int{0}}.on(t, s))
	if got := names(s.Players[0].Hand); !slices.Equal(got, []string{Obelisk}) {
		t.Fatalf("hand after the first good %v; want Laboratory's draw of Obelisk", got)
	}
	s, _ = mustApply(t, s, 0, act{name: BatteryFactory}.on(t, s))
	s, _ = mustApply(t, s, 0, act{name: NuclearPlant, dice: []int{1}}.on(t, s))
	if got := len(s.Players[0].Hand); got != 1 {
		t.Fatalf("hand has %d cards after three goods; Laboratory draws at most once a round", got)
	}
	// Next round it draws again.
	s.Players[1].Done = true
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	s = toWorkPhase(t, s)
	s.Players[0].Dice = []Die{{Value: 1}, {Value: 1}, {Value: 1}, {Value: 1}}
	s.Players[0].Energy = 1
	hand := len(s.Players[0].Hand)
	s, _ = mustApply(t, s, 0, act{name: Biolab, dice: []int{0}}.on(t, s))
	if got := len(s.Players[0].Hand); got != hand+1 {
		t.Errorf("hand %d cards in the next round; want Laboratory to draw again (%d)", got, hand+1)
	}
}

func TestLaboratoryWithoutGoodsDoesNotDraw(t *testing.T) {
	s := table{Seats: []seatSetup{{Compound: []string{Laboratory, PowerPlant}, Dice: []int{6}}}}.build(t)
	s, _ = mustApply(t, s, 0, act{name: PowerPlant, dice: []int{0}}.on(t, s))
	if len(s.Players[0].Hand) != 0 {
		t.Errorf("Laboratory drew without a good being made")
	}
}

// toWorkPhase plays the market phase, each seat taking a blueprint (or
// making its first legal move when it cannot), until the work phase starts.
func toWorkPhase(t testing.TB, s State) State {
	t.Helper()
	for s.Phase == MarketPhase {
		legal := Legal(s, s.Turn)
		m := legal[len(legal)-1]
		for _, l := range legal {
			if l.Kind == Take || l.Kind == Hire {
				m = l
				break
			}
		}
		s, _ = mustApply(t, s, s.Turn, m)
	}
	if s.Phase != WorkPhase {
		t.Fatalf("phase %s after the market phase", s.Phase)
	}
	return s
}

func TestExtraDiceLeaveAtRoundEnd(t *testing.T) {
	s := table{
		Seats:  []seatSetup{{Compound: []string{Golem, Robot, MegaFactory}, Dice: []int{4, 4, 4, 1}, Metal: 1, Energy: 2}},
		Market: []string{Obelisk, Obelisk, Obelisk, Obelisk},
	}.build(t)
	s, _ = mustApply(t, s, 0, act{name: Golem, value: 2}.on(t, s))
	s, _ = mustApply(t, s, 0, act{name: Robot}.on(t, s))
	s, _ = mustApply(t, s, 0, act{name: MegaFactory, dice: []int{0, 1, 2}, value: 6}.on(t, s))
	if got := len(s.Players[0].Dice); got != 7 {
		t.Fatalf("%d dice; want 4 + Golem + Robot + Mega Factory", got)
	}
	// Extra dice are workers like the others.
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{4}, Action: Generate})
	s, _ = mustApply(t, s, 1, Move{Kind: Done})
	s, _ = mustApply(t, s, 0, Move{Kind: Done})
	if s.Phase != MarketPhase {
		t.Fatalf("phase %s after everyone is done", s.Phase)
	}
	p := s.Players[0]
	if len(p.Dice) != 4 {
		t.Fatalf("%d dice after the round; the extra dice must leave", len(p.Dice))
	}
	for _, d := range p.Dice {
		if d.Extra {
			t.Errorf("an extra die stayed: %+v", d)
		}
	}
	s = toWorkPhase(t, s)
	if got := len(s.Players[0].Dice); got != 4 {
		t.Errorf("%d dice in the next work phase; want 4", got)
	}
}

func TestScrapYardAndSolarArray(t *testing.T) {
	t.Run("each triggers once a round after another card is built", func(t *testing.T) {
		s := table{Seats: []seatSetup{{
			Compound: []string{ScrapYard, SolarArray},
			Hand:     []string{Obelisk, Obelisk, Robot, Robot}, Metal: 6, Energy: 2,
		}}}.build(t)
		ob := inHand(t, s, 0, Obelisk, Obelisk)
		rb := inHand(t, s, 0, Robot, Robot)
		s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: ob[0], Discard: rb[:1]})
		if p := s.Players[0]; p.Metal != 6-3+1 || p.Energy != 2-1+2 {
			t.Fatalf("after the first build %d metal %d energy; want Scrap Yard's metal and Solar Array's energy", p.Metal, p.Energy)
		}
		s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: ob[1], Discard: rb[1:]})
		if p := s.Players[0]; p.Metal != 1 || p.Energy != 2 {
			t.Fatalf("after the second build %d metal %d energy; want no second trigger", p.Metal, p.Energy)
		}
	})
	t.Run("Scrap Yard does not trigger on its own building; Solar Array does", func(t *testing.T) {
		s := table{Seats: []seatSetup{{
			Compound: []string{SolarArray},
			Hand:     []string{ScrapYard, Laboratory}, Metal: 1, Energy: 2,
		}}}.build(t)
		s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, ScrapYard)[0], Discard: inHand(t, s, 0, Laboratory)})
		if p := s.Players[0]; p.Metal != 0 || p.Energy != 2 {
			t.Errorf("%d metal %d energy; want Solar Array's 2 energy and nothing from the new Scrap Yard", p.Metal, p.Energy)
		}
		if !s.Players[0].SolarUsed || s.Players[0].ScrapUsed {
			t.Errorf("flags %+v; only Solar Array was used", s.Players[0])
		}
	})
	t.Run("Solar Array does not trigger on its own building", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Hand: []string{SolarArray, Dojo}, Metal: 1, Energy: 2}}}.build(t)
		s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, SolarArray)[0], Discard: inHand(t, s, 0, Dojo)})
		if p := s.Players[0]; p.Metal != 0 || p.Energy != 0 {
			t.Errorf("%d metal %d energy; want the cost paid and no trigger", p.Metal, p.Energy)
		}
	})
	t.Run("triggers reset at the end of the round", func(t *testing.T) {
		s := table{Seats: []seatSetup{{
			Compound: []string{ScrapYard},
			Hand:     []string{Obelisk, Robot}, Metal: 3, Energy: 1,
		}}}.build(t)
		s.Players[0].ScrapUsed = true
		s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Obelisk)[0], Discard: inHand(t, s, 0, Robot)})
		if s.Players[0].Metal != 0 {
			t.Fatalf("Scrap Yard triggered twice in a round")
		}
		s, _ = mustApply(t, s, 1, Move{Kind: Done})
		s, _ = mustApply(t, s, 0, Move{Kind: Done})
		if s.Players[0].ScrapUsed {
			t.Errorf("Scrap Yard still used in the next round")
		}
	})
}

func TestMonuments(t *testing.T) {
	t.Run("Beacon escalates 2, 3, 4, 5", func(t *testing.T) {
		wants := []int{0, 2, 5, 9, 14}
		for n, want := range wants {
			var compound []Building
			for i := range n {
				compound = append(compound, Building{Card: copyOf(Beacon, i)})
			}
			if got := prestige(compound); got != want {
				t.Errorf("%d Beacons: %d prestige; want %d", n, got, want)
			}
		}
		// Beacons between other cards still count in order.
		mixed := []Building{{Card: copyOf(Beacon, 0)}, {Card: one(Obelisk)}, {Card: copyOf(Beacon, 1)}, {Card: one(Dojo)}, {Card: one(Megalith)}}
		if got := prestige(mixed); got != 2+2+3+0+3 {
			t.Errorf("mixed compound: %d prestige; want 10", got)
		}
	})
	t.Run("several Beacons and Obelisks can be built", func(t *testing.T) {
		s := table{Seats: []seatSetup{{
			Hand:  []string{Beacon, Beacon, Beacon, Beacon, Gymnasium, Gymnasium, Gymnasium, Motherlode, Obelisk, Obelisk, Obelisk, Robot, Robot, Robot},
			Metal: 8 + 9, Energy: 16 + 3,
		}}}.build(t)
		beacons := inHand(t, s, 0, Beacon, Beacon, Beacon, Beacon)
		payB := inHand(t, s, 0, Gymnasium, Gymnasium, Gymnasium, Motherlode)
		for i := range 4 {
			s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: beacons[i], Discard: payB[i : i+1]})
		}
		obelisks := inHand(t, s, 0, Obelisk, Obelisk, Obelisk)
		payO := inHand(t, s, 0, Robot, Robot, Robot)
		for i := range 3 {
			s, _ = mustApply(t, s, 0, Move{Kind: Build, Card: obelisks[i], Discard: payO[i : i+1]})
		}
		p := s.Players[0]
		if p.Metal != 0 || p.Energy != 0 {
			t.Errorf("%d metal %d energy left; want 4 Beacons (2/4) and 3 Obelisks (3/1) paid exactly", p.Metal, p.Energy)
		}
		if got := ViewOf(s, 0).Players[0].Prestige; got != 14+6 {
			t.Errorf("prestige %d; want 14 for the Beacons + 6 for the Obelisks", got)
		}
	})
	t.Run("Megalith costs 1 metal less per Monument, down to 0", func(t *testing.T) {
		monuments := []string{Obelisk, Beacon, Obelisk, Beacon, Obelisk, Obelisk, Beacon}
		for n := 0; n <= len(monuments); n++ {
			p := Player{}
			pool := &cardPool{used: map[Card]bool{}}
			for _, name := range monuments[:n] {
				p.Compound = append(p.Compound, Building{Card: pool.take(t, name)})
			}
			p.Compound = append(p.Compound, Building{Card: one(Dojo)}) // not a Monument
			metal, energy := buildCost(&p, one(Megalith))
			if want := max(5-n, 0); metal != want || energy != 2 {
				t.Errorf("with %d Monuments Megalith costs %d metal %d energy; want %d and 2", n, metal, energy, want)
			}
		}
	})
	t.Run("Megalith build pays the discounted cost", func(t *testing.T) {
		setup := seatSetup{Compound: []string{Obelisk, Beacon}, Hand: []string{Megalith, Laboratory}, Metal: 3, Energy: 2}
		s := table{Seats: []seatSetup{setup}}.build(t)
		m := Move{Kind: Build, Card: inHand(t, s, 0, Megalith)[0], Discard: inHand(t, s, 0, Laboratory)}
		after, _ := mustApply(t, s, 0, m)
		if p := after.Players[0]; p.Metal != 0 || p.Energy != 0 {
			t.Errorf("%d metal %d energy left; want 3 metal and 2 energy paid", p.Metal, p.Energy)
		}
		setup.Metal = 2
		s = table{Seats: []seatSetup{setup}}.build(t)
		mustRefuse(t, s, 0, m, "costs 3 metal and 2 energy")
		setup.Metal, setup.Energy = 3, 1
		s = table{Seats: []seatSetup{setup}}.build(t)
		mustRefuse(t, s, 0, m, "costs 3 metal and 2 energy")
	})
	t.Run("Megalith for free with five Monuments", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Compound: []string{Obelisk, Obelisk, Obelisk, Beacon, Beacon},
			Hand: []string{Megalith, Laboratory}, Energy: 2}}}.build(t)
		mustApply(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Megalith)[0], Discard: inHand(t, s, 0, Laboratory)})
	})
	t.Run("only one Megalith per player", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Compound: []string{Megalith}, Hand: []string{Megalith, Laboratory}, Metal: 9, Energy: 9}}}.build(t)
		mustRefuse(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Megalith)[0], Discard: inHand(t, s, 0, Laboratory)}, "already have a Megalith")
	})
}

func TestBuild(t *testing.T) {
	base := seatSetup{Hand: []string{PowerPlant, Dojo, Robot, PowerPlant}, Compound: []string{Harvester}, Metal: 3}
	s := table{Seats: []seatSetup{base, {Hand: []string{Biolab}}}}.build(t)
	pp := inHand(t, s, 0, PowerPlant, PowerPlant)
	dojo, robot := inHand(t, s, 0, Dojo)[0], inHand(t, s, 0, Robot)[0]

	after, events := mustApply(t, s, 0, Move{Kind: Build, Card: pp[0], Discard: []Card{dojo}})
	p := after.Players[0]
	if p.Metal != 0 || !sameCards(p.Hand, []Card{robot, pp[1]}) || len(p.Compound) != 2 || p.Compound[1].Card != pp[0] {
		t.Errorf("after building Power Plant: %+v", p)
	}
	if !slices.Equal(after.Discard, []Card{dojo}) {
		t.Errorf("discard pile %v; want the Dojo paid", names(after.Discard))
	}
	if len(events) == 0 || events[0].Kind != "build" {
		t.Errorf("events %v; want a build event", events)
	}
	// A building can be activated in the round it is built.
	after.Players[0].Dice = []Die{{Value: 4}}
	mustApply(t, after, 0, Move{Kind: Activate, Card: pp[0], Dice: []int{0}})

	refusals := []struct {
		name string
		m    Move
		want string
	}{
		{"card not in hand", Move{Kind: Build, Card: one(Obelisk), Discard: []Card{dojo}}, "from your hand"},
		{"another seat's card", Move{Kind: Build, Card: inHand(t, s, 1, Biolab)[0], Discard: []Card{dojo}}, "from your hand"},
		{"no discard", Move{Kind: Build, Card: pp[0]}, "another gear blueprint"},
		{"two discards", Move{Kind: Build, Card: pp[0], Discard: []Card{dojo, pp[1]}}, "another gear blueprint"},
		{"discarding the card itself", Move{Kind: Build, Card: pp[0], Discard: []Card{pp[0]}}, "another gear blueprint"},
		{"wrong tool", Move{Kind: Build, Card: pp[0], Discard: []Card{robot}}, "has a hammer"},
		{"discard not in hand", Move{Kind: Build, Card: pp[0], Discard: []Card{one(Biolab)}}, "not in your hand"},
		{"an unknown discard", Move{Kind: Build, Card: pp[0], Discard: []Card{Card(999)}}, "not in your hand"},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) { mustRefuse(t, s, 0, r.m, r.want) })
	}
	t.Run("short of metal or energy", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Hand: []string{Biolab, Dojo}, Metal: 1, Energy: 2}}}.build(t)
		mustRefuse(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Biolab)[0], Discard: inHand(t, s, 0, Dojo)}, "costs 1 metal and 3 energy; you have 1 and 2")
		s.Players[0].Metal, s.Players[0].Energy = 0, 3
		mustRefuse(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Biolab)[0], Discard: inHand(t, s, 0, Dojo)}, "costs 1 metal and 3 energy; you have 0 and 3")
	})
	t.Run("a second copy of a card", func(t *testing.T) {
		s := table{Seats: []seatSetup{{Compound: []string{Harvester}, Hand: []string{Harvester, Robot}, Metal: 9, Energy: 9}}}.build(t)
		mustRefuse(t, s, 0, Move{Kind: Build, Card: inHand(t, s, 0, Harvester)[0], Discard: inHand(t, s, 0, Robot)}, "already have a Harvester")
	})
	t.Run("not in the market phase", func(t *testing.T) {
		s := table{Phase: MarketPhase, Seats: []seatSetup{base}}.build(t)
		mustRefuse(t, s, 0, Move{Kind: Build, Card: pp[0], Discard: []Card{dojo}}, "not a market phase move")
	})
}

// A split only matters when the printed cost is over 4: otherwise Black
// Market gives exactly the printed cost, whatever the move asks for.
func TestBlackMarketIgnoresASplitAtFourOrLess(t *testing.T) {
	s := table{Seats: []seatSetup{{Compound: []string{BlackMarket}, Hand: []string{Biolab}, Dice: []int{6}}}}.build(t)
	after, _ := mustApply(t, s, 0, act{name: BlackMarket, dice: []int{0}, discard: []string{Biolab}, metal: 4}.on(t, s))
	if p := after.Players[0]; p.Metal != 1 || p.Energy != 3 {
		t.Errorf("%d metal %d energy; want Biolab's printed 1 and 3", p.Metal, p.Energy)
	}
}

// Training cards and Temp Agency work only on dice that show a value: an
// unset Specialist die must be chosen first.
func TestTrainingNeedsASetDie(t *testing.T) {
	for _, card := range []string{Dojo, FitnessCenter, Gymnasium, TempAgency} {
		s := table{Seats: []seatSetup{{Compound: []string{card}, Dice: []int{3}, Energy: 2}}}.build(t)
		s.Players[0].Dice = append(s.Players[0].Dice, Die{Extra: true, Chosen: true})
		mustRefuse(t, s, 0, act{name: card, dice: []int{1}}.on(t, s), "choose that die's value first")
	}
}

// The dice Robot and Golem add are workers like any other.
func TestExtraDiceAreWorkers(t *testing.T) {
	s := table{Seats: []seatSetup{{Compound: []string{Robot, Golem, Biolab}, Dice: []int{6}, Metal: 1, Energy: 2}}}.build(t)
	s, _ = mustApply(t, s, 0, act{name: Robot}.on(t, s))
	s, _ = mustApply(t, s, 0, Move{Kind: Place, Dice: []int{1}, Action: Research})
	s, _ = mustApply(t, s, 0, act{name: Golem, value: 1}.on(t, s))
	s, _ = mustApply(t, s, 0, act{name: Biolab, dice: []int{2}}.on(t, s))
	if p := s.Players[0]; p.Goods != 1 || len(p.Hand) != 1 || p.Energy != 0 {
		t.Errorf("goods %d hand %d energy %d; want Robot's die researching and Golem's 1 on Biolab", p.Goods, len(p.Hand), p.Energy)
	}
}

// Goods made through a Replicator are goods gained: Laboratory draws.
func TestLaboratoryDrawsForReplicatedGoods(t *testing.T) {
	s := table{
		Seats:  []seatSetup{{Compound: []string{Laboratory, Replicator}, Dice: []int{6}, Energy: 1}},
		Market: []string{NuclearPlant},
		Deck:   []string{Dojo},
	}.build(t)
	s, _ = mustApply(t, s, 0, act{name: Replicator, dice: []int{0}}.on(t, s))
	if got := names(s.Players[0].Hand); !slices.Equal(got, []string{Dojo}) || !s.Players[0].LabDrew {
		t.Errorf("hand %v; want Laboratory's draw", got)
	}
}

// Recycling Plant's own draw comes on top of Laboratory's.
func TestLaboratoryAndRecyclingPlant(t *testing.T) {
	s := table{
		Seats: []seatSetup{{Compound: []string{Laboratory, RecyclingPlant}, Hand: []string{Robot, Robot}, Energy: 2}},
		Deck:  []string{Dojo, Golem},
	}.build(t)
	s, _ = mustApply(t, s, 0, act{name: RecyclingPlant, discard: []string{Robot, Robot}}.on(t, s))
	if got := names(s.Players[0].Hand); !slices.Equal(got, []string{Dojo, Golem}) {
		t.Errorf("hand %v; want one card for Laboratory and one for Recycling Plant", got)
	}
}

// TestActivationIsLogged: the log names the building and what it did, in
// words that read after a player's name and after "You" alike.
func TestActivationIsLogged(t *testing.T) {
	s := table{Seats: []seatSetup{{Compound: []string{Incinerator}, Hand: []string{Robot}, Dice: []int{1, 1, 1, 1}, Metal: 1}}}.build(t)
	_, events := mustApply(t, s, 0, act{name: Incinerator, discard: []string{Robot}}.on(t, s))
	if len(events) != 1 || events[0].Seat != 0 || events[0].Text != "used Incinerator: burned a blueprint for 6 energy" {
		t.Errorf("events %+v; want seat 0's \"used Incinerator: burned a blueprint for 6 energy\"", events)
	}
}
