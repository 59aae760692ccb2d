package factories

import "testing"

// TestCardTable checks cards.json against the published card list
// (docs: the project's card reference): name, type, tool, copies, cost and
// prestige of all 32 blueprints.
func TestCardTable(t *testing.T) {
	want := []Blueprint{
		{Name: AluminumFactory, Type: Production, Tool: Shovel, Copies: 2, Metal: 2, Energy: 2, Prestige: 1},
		{Name: AssemblyLine, Type: Production, Tool: Gear, Copies: 2, Metal: 2, Energy: 1, Prestige: 1},
		{Name: BatteryFactory, Type: Production, Tool: Wrench, Copies: 2, Metal: 2, Energy: 1, Prestige: 1},
		{Name: Beacon, Type: Monument, Tool: Shovel, Copies: 4, Metal: 2, Energy: 4, Prestige: 0},
		{Name: Biolab, Type: Production, Tool: Gear, Copies: 2, Metal: 1, Energy: 3, Prestige: 1},
		{Name: BlackMarket, Type: Utility, Tool: Gear, Copies: 2, Metal: 3, Energy: 2, Prestige: 1},
		{Name: ConcretePlant, Type: Production, Tool: Shovel, Copies: 2, Metal: 2, Energy: 2, Prestige: 1},
		{Name: Dojo, Type: Training, Tool: Gear, Copies: 2, Metal: 1, Energy: 1, Prestige: 0},
		{Name: FitnessCenter, Type: Training, Tool: Wrench, Copies: 3, Metal: 1, Energy: 0, Prestige: 0},
		{Name: Foundry, Type: Utility, Tool: Gear, Copies: 2, Metal: 2, Energy: 1, Prestige: 1},
		{Name: FulfillmentCenter, Type: Production, Tool: Hammer, Copies: 2, Metal: 2, Energy: 1, Prestige: 1},
		{Name: Golem, Type: Special, Tool: Hammer, Copies: 2, Metal: 4, Energy: 0, Prestige: 1},
		{Name: Gymnasium, Type: Training, Tool: Shovel, Copies: 3, Metal: 1, Energy: 0, Prestige: 0},
		{Name: Harvester, Type: Utility, Tool: Hammer, Copies: 2, Metal: 1, Energy: 2, Prestige: 1},
		{Name: Incinerator, Type: Utility, Tool: Shovel, Copies: 2, Metal: 2, Energy: 1, Prestige: 1},
		{Name: Laboratory, Type: Special, Tool: Wrench, Copies: 2, Metal: 1, Energy: 4, Prestige: 1},
		{Name: Manufactory, Type: Production, Tool: Wrench, Copies: 2, Metal: 2, Energy: 3, Prestige: 1},
		{Name: MegaFactory, Type: Production, Tool: Gear, Copies: 2, Metal: 3, Energy: 2, Prestige: 1},
		{Name: Megalith, Type: Monument, Tool: Wrench, Copies: 3, Metal: 5, Energy: 2, Prestige: 3},
		{Name: Motherlode, Type: Utility, Tool: Shovel, Copies: 2, Metal: 1, Energy: 3, Prestige: 1},
		{Name: NuclearPlant, Type: Production, Tool: Wrench, Copies: 2, Metal: 2, Energy: 2, Prestige: 1},
		{Name: Obelisk, Type: Monument, Tool: Hammer, Copies: 5, Metal: 3, Energy: 1, Prestige: 2},
		{Name: PowerPlant, Type: Utility, Tool: Gear, Copies: 2, Metal: 3, Energy: 0, Prestige: 1},
		{Name: RecyclingPlant, Type: Production, Tool: Gear, Copies: 3, Metal: 2, Energy: 0, Prestige: 1},
		{Name: Refinery, Type: Utility, Tool: Wrench, Copies: 2, Metal: 1, Energy: 3, Prestige: 1},
		{Name: Replicator, Type: Special, Tool: Shovel, Copies: 2, Metal: 2, Energy: 2, Prestige: 1},
		{Name: Robot, Type: Special, Tool: Hammer, Copies: 3, Metal: 1, Energy: 1, Prestige: 0},
		{Name: ScrapYard, Type: Special, Tool: Wrench, Copies: 2, Metal: 1, Energy: 2, Prestige: 0},
		{Name: SolarArray, Type: Special, Tool: Gear, Copies: 2, Metal: 1, Energy: 2, Prestige: 0},
		{Name: TempAgency, Type: Training, Tool: Hammer, Copies: 2, Metal: 1, Energy: 0, Prestige: 0},
		{Name: TrashCompactor, Type: Production, Tool: Shovel, Copies: 2, Metal: 2, Energy: 1, Prestige: 1},
		{Name: Warehouse, Type: Production, Tool: Hammer, Copies: 2, Metal: 3, Energy: 2, Prestige: 1},
	}
	got := Blueprints()
	if len(got) != len(want) {
		t.Fatalf("%d blueprint designs; want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		g.Text = ""
		if g != w {
			t.Errorf("blueprint %d: %+v; want %+v", i, g, w)
		}
		if got[i].Text == "" {
			t.Errorf("%s has no text", w.Name)
		}
		if n := len(CardsNamed(w.Name)); n != w.Copies {
			t.Errorf("%d physical %s; want %d", n, w.Name, w.Copies)
		}
	}
	if NumCards() != 74 {
		t.Errorf("%d blueprints; want 74", NumCards())
	}
	types, tools := map[Type]int{}, map[Tool]int{}
	for c := range NumCards() {
		b := Card(c).Info()
		types[b.Type]++
		tools[b.Tool]++
	}
	// The per-card table adds up to these 74 (the reference summary line
	// saying 27 production and 14 special does not add up to 74).
	wantTypes := map[Type]int{Production: 25, Utility: 14, Training: 10, Special: 13, Monument: 12}
	wantTools := map[Tool]int{Shovel: 19, Gear: 19, Wrench: 18, Hammer: 18}
	for k, v := range wantTypes {
		if types[k] != v {
			t.Errorf("%d %s cards; want %d", types[k], k, v)
		}
	}
	for k, v := range wantTools {
		if tools[k] != v {
			t.Errorf("%d %s cards; want %d", tools[k], k, v)
		}
	}
}

func TestContractorTable(t *testing.T) {
	want := []struct {
		name           string
		copies, energy int
	}{
		{Architect, 2, 0}, {Electrician, 2, 0}, {Engineer, 1, 4}, {Foreman, 1, 2},
		{HiredHands, 3, 3}, {Investor, 3, 0}, {Miner, 2, 0}, {Specialist, 3, 0},
	}
	got := Contractors()
	if len(got) != len(want) {
		t.Fatalf("%d contractor designs", len(got))
	}
	for i, w := range want {
		if got[i].Name != w.name || got[i].Copies != w.copies || got[i].Energy != w.energy || got[i].Text == "" {
			t.Errorf("contractor %d: %+v; want %+v", i, got[i], w)
		}
		if n := len(ContractorsNamed(w.name)); n != w.copies {
			t.Errorf("%d physical %s", n, w.name)
		}
	}
	if NumContractors() != 17 {
		t.Errorf("%d contractors; want 17", NumContractors())
	}
}

func TestCardLookups(t *testing.T) {
	for _, c := range []Card{-1, None, 74, 1000} {
		if c.Name() != "unknown card" {
			t.Errorf("card %d is named %q", c, c.Name())
		}
	}
	for _, c := range []Contractor{-1, 17} {
		if c.Name() != "unknown contractor" {
			t.Errorf("contractor %d is named %q", c, c.Name())
		}
	}
	if CardsNamed("Factory") != nil || ContractorsNamed("Banker") != nil {
		t.Errorf("lookups of names that are not printed found cards")
	}
	// The tables are read-only: changing a returned copy changes nothing.
	b := Blueprints()
	b[0].Metal = 99
	c := Contractors()
	c[0].Energy = 99
	if Blueprints()[0].Metal == 99 || Contractors()[0].Energy == 99 {
		t.Errorf("Blueprints or Contractors returned the tables themselves")
	}
	if Tools() != [4]Tool{Gear, Wrench, Hammer, Shovel} {
		t.Errorf("tools %v", Tools())
	}
	// Which cards have a recipe to activate.
	for _, b := range Blueprints() {
		passive := b.Type == Monument || b.Name == Laboratory || b.Name == ScrapYard || b.Name == SolarArray
		if activatable(&b) == passive {
			t.Errorf("%s activatable = %v", b.Name, activatable(&b))
		}
		if multipleAllowed(b.Name) != (b.Name == Obelisk || b.Name == Beacon) {
			t.Errorf("%s multiple = %v", b.Name, multipleAllowed(b.Name))
		}
	}
}
