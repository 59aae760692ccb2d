package factories

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// activate runs the recipe of a building in the seat's compound.
func (g *game) activate(m Move) error {
	p := g.me()
	at := slices.IndexFunc(p.Compound, func(b Building) bool { return b.Card == m.Card })
	if at < 0 {
		return refuse("activate_compound", "you can only activate a card in your compound")
	}
	host := &p.Compound[at]
	b := host.Card.Info()
	if !activatable(&b) {
		return refuse("no_recipe", b.Name+" has no recipe to activate", engine.CardArg("Card", b.Name))
	}
	if host.Used {
		return refuse("activated", b.Name+" was already activated this round", engine.CardArg("Card", b.Name))
	}
	if b.Name == Replicator {
		if err := checkSlot(m.Slot); err != nil {
			return err
		}
		target := g.Market.Blueprints[m.Slot]
		if target == None {
			return refuse("replicator_slot", "Replicator needs a blueprint in that marketplace slot")
		}
		copied := target.Info()
		if !activatable(&copied) || copied.Name == Replicator {
			return refuse("replicator_copy", "Replicator cannot copy "+copied.Name+": it has no recipe to activate", engine.CardArg("Card", copied.Name))
		}
		if p.Energy < 1 {
			return refuse("replicator_energy", "Replicator costs 1 energy")
		}
		p.Energy--
		if err := g.recipe(copied, m, at); err != nil {
			p.Energy++ // the recipe refused before any change of its own
			return replicatorAs(copied.Name, err)
		}
		host = &g.me().Compound[at]
		host.Copied = copied.Name
		host.Used = true
		return nil
	}
	if err := g.recipe(b, m, at); err != nil {
		return err
	}
	g.me().Compound[at].Used = true
	return nil
}

// recipe pays for and resolves card b's recipe for the seat. Dice go on the
// compound building at index host (the Replicator when copying).
func (g *game) recipe(b Blueprint, m Move, host int) error {
	p, r := g.me(), recipeOf(b.Name)
	var space [8]int
	dice, err := workers(p, m.Dice, space[:0])
	if err != nil {
		return err
	}
	// pay charges the recipe's cost, which Legal checks the seat can meet.
	// A recipe that also discards checks it can pay (afford) before the
	// discard and charges after, so that a refusal comes before any change.
	afford := func() error {
		metal, energy := recipeCost(r, m.Value, dice)
		if p.Metal < metal || p.Energy < energy {
			return refuse("recipe_cost_"+costKind(metal, energy), fmt.Sprintf("%s needs %s; you have %d metal and %d energy", b.Name, costText(metal, energy), p.Metal, p.Energy),
				engine.CardArg("Card", b.Name), num("Metal", metal), num("Energy", energy), num("HaveMetal", p.Metal), num("HaveEnergy", p.Energy))
		}
		return nil
	}
	charge := func() {
		metal, energy := recipeCost(r, m.Value, dice)
		p.Metal -= metal
		p.Energy -= energy
	}
	pay := func() error {
		if err := afford(); err != nil {
			return err
		}
		charge()
		return nil
	}
	discard := func(n int) error {
		if len(m.Discard) != n {
			return refuse("recipe_discard", fmt.Sprintf("%s needs %s from your hand to discard", b.Name, plural(n, "blueprint")), engine.CardArg("Card", b.Name), num("N", n))
		}
		if err := takeFromHand(p, m.Discard...); err != nil {
			return err
		}
		g.Discard = append(g.Discard, m.Discard...)
		return nil
	}
	work := func() { // the dice become workers on the card
		placeDice(p, m.Dice)
		p.Compound[host].Dice = append(p.Compound[host].Dice[:0], dice...)
	}
	say := func(w func() engine.Words, text ...string) {
		if g.wording() {
			g.emit(g.seat, "activate", engine.Say("factories.log.activate", engine.CardArg("Card", b.Name), engine.ListArg("What", w())),
				"used ", b.Name, ": ", strings.Join(text, ""))
		}
	}
	gained := func(items ...engine.Words) engine.Words {
		return engine.Say("factories.log.gain", gains("Gain", items...))
	}
	metal := func(n int) engine.Words { return amount(nMetal, n) }
	energy := func(n int) engine.Words { return amount(nEnergy, n) }
	goods := func(n int) engine.Words { return amount(nGoods, n) }

	if err := checkWorkers(b.Name, dice); err != nil {
		return err
	}
	switch b.Name {
	case AluminumFactory:
		if err := pay(); err != nil {
			return err
		}
		work()
		p.Metal++
		say(func() engine.Words { return gained(goods(2), metal(1)) }, "gained 2 goods and 1 metal")
		g.gainGoods(2)
	case AssemblyLine, Warehouse:
		work()
		if b.Name == Warehouse {
			p.Energy += 2
			say(func() engine.Words { return gained(goods(2), energy(2)) }, "gained 2 goods and 2 energy")
		} else {
			say(func() engine.Words { return gained(goods(2)) }, "gained 2 goods")
		}
		g.gainGoods(2)
	case BatteryFactory:
		if err := pay(); err != nil {
			return err
		}
		say(func() engine.Words { return gained(goods(1)) }, "gained 1 good")
		g.gainGoods(1)
	case Biolab:
		if err := pay(); err != nil {
			return err
		}
		work()
		say(func() engine.Words { return gained(goods(1)) }, "gained 1 good")
		g.gainGoods(1)
	case BlackMarket:
		if len(m.Discard) != 1 {
			return refuse("black_market", "Black Market needs one blueprint from your hand to discard")
		}
		cost := m.Discard[0].Info() // the printed cost: Megalith's discount does not count
		metal, energy := cost.Metal, cost.Energy
		if metal+energy > 4 {
			if m.Metal < 0 || m.Energy < 0 || m.Metal > metal || m.Energy > energy || m.Metal+m.Energy != 4 {
				return refuse("black_market_"+costKind(metal, energy), fmt.Sprintf("%s costs %s: choose 4 of those resources to gain", cost.Name, costText(metal, energy)),
					engine.CardArg("Card", cost.Name), num("Metal", metal), num("Energy", energy))
			}
			metal, energy = m.Metal, m.Energy
		}
		if err := discard(1); err != nil {
			return err
		}
		work()
		p.Metal += metal
		p.Energy += energy
		g.revealed = "the Black Market showed the card you sold, so it stands"
		say(func() engine.Words {
			return engine.Say("factories.log.sold", engine.CardArg("Card", cost.Name), gains("Gain", amount(nMetal, metal), amount(nEnergy, energy)))
		},
			"sold ", cost.Name, " for ", strconv.Itoa(metal), " metal and ", strconv.Itoa(energy), " energy")
	case ConcretePlant:
		if err := pay(); err != nil {
			return err
		}
		work()
		say(func() engine.Words {
			return engine.Say("factories.log.paidfor", engine.ListArg("Pay", metal(dice[0])), gains("Gain", goods(2)))
		}, "paid ", strconv.Itoa(dice[0]), " metal for 2 goods")
		g.gainGoods(2)
	case Dojo, FitnessCenter, Gymnasium:
		if err := pay(); err != nil {
			return err
		}
		d := &p.Dice[m.Dice[0]]
		from := d.Value
		switch b.Name {
		case Dojo:
			d.Value = 7 - d.Value
		case FitnessCenter:
			d.Value--
		case Gymnasium:
			d.Value++
		}
		say(func() engine.Words {
			return engine.Say("factories.log.turned", engine.Num("From", from), engine.Num("To", d.Value))
		}, "turned a ", strconv.Itoa(from), " into a ", strconv.Itoa(d.Value))
	case Foundry:
		if err := pay(); err != nil {
			return err
		}
		work()
		p.Metal += dice[0]
		say(func() engine.Words {
			return engine.Say("factories.log.convert", engine.ListArg("Pay", energy(dice[0])), gains("Gain", metal(dice[0])))
		},
			"turned ", strconv.Itoa(dice[0]), " energy into ", strconv.Itoa(dice[0]), " metal")
	case FulfillmentCenter:
		if err := pay(); err != nil {
			return err
		}
		work()
		p.Metal++
		say(func() engine.Words { return gained(goods(1), metal(1)) }, "gained 1 good and 1 metal")
		g.gainGoods(1)
	case Golem:
		if m.Value < 1 || m.Value > 6 {
			return refuse("golem", "Golem makes a die of value 1 to 6: choose X and pay X energy")
		}
		if err := pay(); err != nil {
			return err
		}
		p.Dice = append(p.Dice, Die{Value: m.Value, Extra: true})
		say(func() engine.Words {
			return engine.Say("factories.log.golem", engine.ListArg("Pay", energy(m.Value)), engine.Num("Value", m.Value))
		}, "paid ", strconv.Itoa(m.Value), " energy for an extra ", strconv.Itoa(m.Value))
	case Harvester:
		if err := choice(b.Name, m.Choice, "metal", "energy"); err != nil {
			return err
		}
		work()
		if m.Choice == "metal" {
			p.Metal += 4
			say(func() engine.Words { return gained(metal(4)) }, "gained 4 metal")
		} else {
			p.Energy += 7
			say(func() engine.Words { return gained(energy(7)) }, "gained 7 energy")
		}
	case Incinerator:
		if err := afford(); err != nil {
			return err
		}
		if err := discard(1); err != nil {
			return err
		}
		charge()
		p.Energy += 6
		say(func() engine.Words { return engine.Say("factories.log.burned", gains("Gain", energy(6))) }, "burned a blueprint for 6 energy")
	case Manufactory:
		if err := choice(b.Name, m.Choice, "metal", "energy", "draw"); err != nil {
			return err
		}
		work()
		switch m.Choice {
		case "metal":
			p.Metal += 2
			say(func() engine.Words { return gained(goods(1), metal(2)) }, "gained 1 good and 2 metal")
		case "energy":
			p.Energy += 3
			say(func() engine.Words { return gained(goods(1), energy(3)) }, "gained 1 good and 3 energy")
		case "draw":
			say(func() engine.Words { return gained(goods(1), amount(nBlueprints, 2)) }, "gained 1 good and 2 blueprints")
			g.drawTo(g.seat, 2, Manufactory)
		}
		g.gainGoods(1)
	case MegaFactory:
		if m.Value < 1 || m.Value > 6 {
			return refuse("mega_factory", "Mega Factory gives an extra die: choose its value, 1 to 6")
		}
		work()
		p.Dice = append(p.Dice, Die{Value: m.Value, Extra: true})
		say(func() engine.Words {
			return engine.Say("factories.log.megafactory", gains("Gain", goods(2)), engine.Num("Value", m.Value))
		}, "gained 2 goods and an extra ", strconv.Itoa(m.Value))
		g.gainGoods(2)
	case Motherlode:
		work()
		gain := 1
		if dice[0] >= 4 {
			gain = 2
		}
		p.Metal += gain
		say(func() engine.Words { return gained(metal(gain)) }, "gained ", strconv.Itoa(gain), " metal")
	case NuclearPlant:
		work()
		p.Energy++
		say(func() engine.Words { return gained(goods(1), energy(1)) }, "gained 1 good and 1 energy")
		g.gainGoods(1)
	case PowerPlant:
		work()
		p.Energy += dice[0]
		say(func() engine.Words { return gained(energy(dice[0])) }, "gained ", strconv.Itoa(dice[0]), " energy")
	case RecyclingPlant:
		if err := afford(); err != nil {
			return err
		}
		if err := discard(2); err != nil {
			return err
		}
		charge()
		say(func() engine.Words {
			return engine.Say("factories.log.recycled", engine.ListArg("Pay", amount(nBlueprints, 2)), gains("Gain", goods(1)))
		}, "recycled 2 blueprints for 1 good")
		g.gainGoods(1)
		g.drawTo(g.seat, 1, RecyclingPlant)
	case Refinery:
		if err := afford(); err != nil {
			return err
		}
		if err := discard(1); err != nil {
			return err
		}
		charge()
		p.Metal += 3
		say(func() engine.Words {
			return engine.Say("factories.log.refined", engine.ListArg("Pay", energy(3)), gains("Gain", metal(3)))
		}, "refined a blueprint and 3 energy into 3 metal")
	case Robot:
		if err := pay(); err != nil {
			return err
		}
		d := Die{Value: g.RNG.Die(), Extra: true}
		p.Dice = append(p.Dice, d)
		say(func() engine.Words {
			return engine.Say("factories.log.robot", engine.ListArg("Pay", metal(1)), engine.Num("Value", d.Value))
		}, "paid 1 metal and rolled an extra ", strconv.Itoa(d.Value))
	case TempAgency:
		if err := pay(); err != nil {
			return err
		}
		for _, i := range m.Dice {
			p.Dice[i].Value = g.RNG.Die()
		}
		if g.wording() {
			n, dice := len(m.Dice), diceText(p.Dice)
			rolled := "1 die"
			if n != 1 {
				rolled = strconv.Itoa(n) + " dice"
			}
			say(func() engine.Words {
				return engine.Say("factories.log.rerolled", engine.Num("N", n), engine.Str("Dice", dice))
			}, "rerolled ", rolled, ": dice now ", dice)
		}
	case TrashCompactor:
		if err := discard(2); err != nil {
			return err
		}
		work()
		say(func() engine.Words {
			return engine.Say("factories.log.compacted", engine.ListArg("Pay", amount(nBlueprints, 2)), gains("Gain", goods(2)))
		}, "compacted 2 blueprints into 2 goods")
		g.gainGoods(2)
	default:
		return refuse("no_recipe", b.Name+" has no recipe to activate", engine.CardArg("Card", b.Name))
	}
	return nil
}

// recipeCost is what running recipe r costs, the "pays" column of the
// recipe table: recipe charges it and Legal checks the seat can meet it.
// value is the move's Value (Golem's X), and dice are the workers' values,
// already checked by checkWorkers.
func recipeCost(r recipe, value int, dice []int) (metal, energy int) {
	switch r {
	case aluminumFactory:
		return 0, 5
	case batteryFactory:
		return 0, 4
	case refinery:
		return 0, 3
	case fulfillmentCenter, recyclingPlant:
		return 0, 2
	case biolab, dojo, fitnessCenter, gymnasium, tempAgency:
		return 0, 1
	case incinerator, robot:
		return 1, 0
	case concretePlant:
		return dice[0], 0 // X metal for a pair of X
	case foundry:
		return 0, dice[0]
	case golem:
		return 0, value
	}
	return 0, 0
}

// workersFit reports whether dice showing d fit recipe r: how many it
// takes and the pattern printed on the card.
func workersFit(r recipe, d []int) bool {
	switch r {
	case batteryFactory, golem, incinerator, recyclingPlant, refinery, robot:
		return len(d) == 0
	case biolab:
		return len(d) == 1 && d[0] == 1
	case fulfillmentCenter:
		return len(d) == 1 && d[0] == 4
	case nuclearPlant:
		return len(d) == 1 && d[0] == 6
	case blackMarket, foundry, motherlode, powerPlant, dojo:
		return len(d) == 1
	case fitnessCenter:
		return len(d) == 1 && d[0] != 1
	case gymnasium:
		return len(d) == 1 && d[0] != 6
	case tempAgency:
		return len(d) > 0
	case aluminumFactory, concretePlant, harvester, manufactory, trashCompactor:
		return len(d) == 2 && d[0] == d[1]
	case megaFactory:
		return len(d) == 3 && d[0] == d[1] && d[1] == d[2]
	case assemblyLine:
		// A run in any order: three different values spanning two steps.
		return len(d) == 3 && d[0] != d[1] && d[1] != d[2] && d[0] != d[2] &&
			max(d[0], d[1], d[2])-min(d[0], d[1], d[2]) == 2
	case warehouse:
		return len(d) == 3 && d[0]+d[1]+d[2] >= 14
	}
	return true
}

// checkWorkers refuses dice that do not fit recipe name (see workersFit),
// saying what the card needs. Legal asks workersFit alone: it skips many
// dice and needs no reasons.
func checkWorkers(name string, d []int) error {
	if workersFit(recipeOf(name), d) {
		return nil
	}
	switch name {
	case BatteryFactory, Golem, Incinerator, RecyclingPlant, Refinery, Robot:
		return refuse("no_dice", name+" needs no dice", engine.CardArg("Card", name))
	case Biolab:
		return refuse("die_showing", "Biolab needs a die showing 1", engine.CardArg("Card", name), num("Face", 1))
	case FulfillmentCenter:
		return refuse("die_showing", "Fulfillment Center needs a die showing 4", engine.CardArg("Card", name), num("Face", 4))
	case NuclearPlant:
		return refuse("die_showing", "Nuclear Plant needs a die showing 6", engine.CardArg("Card", name), num("Face", 6))
	case BlackMarket, Foundry, Motherlode, PowerPlant:
		return refuse("one_die", name+" needs one die", engine.CardArg("Card", name))
	case Dojo:
		return refuse("flip", name+" needs one unplaced die to flip", engine.CardArg("Card", name))
	case FitnessCenter:
		if len(d) != 1 {
			return refuse("lower", name+" needs one unplaced die to lower", engine.CardArg("Card", name))
		}
		return refuse("lower_1", "Fitness Center cannot lower a 1", engine.CardArg("Card", name))
	case Gymnasium:
		if len(d) != 1 {
			return refuse("raise", name+" needs one unplaced die to raise", engine.CardArg("Card", name))
		}
		return refuse("raise_6", "Gymnasium cannot raise a 6", engine.CardArg("Card", name))
	case TempAgency:
		return refuse("reroll", "Temp Agency needs at least one unplaced die to reroll", engine.CardArg("Card", name))
	case AluminumFactory, ConcretePlant, Harvester, Manufactory, TrashCompactor:
		return refuse("pair", name+" needs 2 matching dice", engine.CardArg("Card", name))
	case MegaFactory:
		return refuse("three", "Mega Factory needs 3 matching dice", engine.CardArg("Card", name))
	case AssemblyLine:
		return refuse("run", "Assembly Line needs 3 dice in a run, such as 2, 3 and 4", engine.CardArg("Card", name))
	case Warehouse:
		return refuse("total", "Warehouse needs 3 dice adding up to 14 or more", engine.CardArg("Card", name))
	}
	return nil
}

func choice(card, got string, options ...string) error {
	if slices.Contains(options, got) {
		return nil
	}
	return choiceRefusal(card, options)
}

func costText(metal, energy int) string {
	switch {
	case metal > 0 && energy > 0:
		return fmt.Sprintf("%d metal and %d energy", metal, energy)
	case metal > 0:
		return fmt.Sprintf("%d metal", metal)
	default:
		return fmt.Sprintf("%d energy", energy)
	}
}

// recipe is a design's recipe by number, for the rules' inner loops (see
// facts): Legal decides many candidates of each recipe, and a switch on a
// number costs less than one on a name.
type recipe uint8

// The recipes, one per design that has one.
const (
	noRecipe recipe = iota // a design without a recipe, or a card outside the table
	aluminumFactory
	assemblyLine
	batteryFactory
	biolab
	blackMarket
	concretePlant
	dojo
	fitnessCenter
	foundry
	fulfillmentCenter
	golem
	gymnasium
	harvester
	incinerator
	manufactory
	megaFactory
	motherlode
	nuclearPlant
	powerPlant
	recyclingPlant
	refinery
	replicator
	robot
	tempAgency
	trashCompactor
	warehouse
)

// recipeOf is the recipe of the design called name.
func recipeOf(name string) recipe {
	switch name {
	case AluminumFactory:
		return aluminumFactory
	case AssemblyLine:
		return assemblyLine
	case BatteryFactory:
		return batteryFactory
	case Biolab:
		return biolab
	case BlackMarket:
		return blackMarket
	case ConcretePlant:
		return concretePlant
	case Dojo:
		return dojo
	case FitnessCenter:
		return fitnessCenter
	case Foundry:
		return foundry
	case FulfillmentCenter:
		return fulfillmentCenter
	case Golem:
		return golem
	case Gymnasium:
		return gymnasium
	case Harvester:
		return harvester
	case Incinerator:
		return incinerator
	case Manufactory:
		return manufactory
	case MegaFactory:
		return megaFactory
	case Motherlode:
		return motherlode
	case NuclearPlant:
		return nuclearPlant
	case PowerPlant:
		return powerPlant
	case RecyclingPlant:
		return recyclingPlant
	case Refinery:
		return refinery
	case Replicator:
		return replicator
	case Robot:
		return robot
	case TempAgency:
		return tempAgency
	case TrashCompactor:
		return trashCompactor
	case Warehouse:
		return warehouse
	}
	return noRecipe
}
