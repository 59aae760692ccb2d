package factories

import (
	"fmt"
	"strconv"
)

// activationResult words what activating the building called name with m
// brings, and what it costs, for the menu: "2 goods and 1 metal, paying 5
// energy". dice are the values of m's dice. The words follow recipe, which
// the tests hold them to; "" for a design without a recipe.
func activationResult(name string, m Move, dice []int) string {
	gain := activationGain(name, m, dice)
	if gain == "" {
		return ""
	}
	if metal, energy := activationCost(name, m, dice); metal+energy > 0 {
		gain += ", paying " + costText(metal, energy)
	}
	return gain
}

// activationCost is the recipe's cost, when the dice it needs are there.
func activationCost(name string, m Move, dice []int) (metal, energy int) {
	r := recipeOf(name)
	if (r == concretePlant || r == foundry) && len(dice) == 0 {
		return 0, 0
	}
	return recipeCost(r, m.Value, dice)
}

// activationGain is what the recipe gives, as recipe pays it out.
func activationGain(name string, m Move, dice []int) string {
	first := 0
	if len(dice) > 0 {
		first = dice[0]
	}
	switch name {
	case AluminumFactory:
		return "2 goods and 1 metal"
	case AssemblyLine, ConcretePlant, TrashCompactor:
		return "2 goods"
	case Warehouse:
		return "2 goods and 2 energy"
	case BatteryFactory, Biolab:
		return "1 good"
	case BlackMarket:
		return blackMarketGain(m)
	case Dojo:
		return fmt.Sprintf("the %d becomes a %d", first, 7-first)
	case FitnessCenter:
		return fmt.Sprintf("the %d becomes a %d", first, first-1)
	case Gymnasium:
		return fmt.Sprintf("the %d becomes a %d", first, first+1)
	case Foundry:
		return strconv.Itoa(first) + " metal"
	case FulfillmentCenter:
		return "1 good and 1 metal"
	case Golem:
		return "an extra die showing " + strconv.Itoa(m.Value)
	case Harvester:
		return map[string]string{"metal": "4 metal", "energy": "7 energy"}[m.Choice]
	case Incinerator:
		return "6 energy"
	case Manufactory:
		return map[string]string{"metal": "1 good and 2 metal", "energy": "1 good and 3 energy",
			"draw": "1 good and 2 blueprints"}[m.Choice]
	case MegaFactory:
		return "2 goods and an extra die showing " + strconv.Itoa(m.Value)
	case Motherlode:
		if first >= 4 {
			return "2 metal"
		}
		return "1 metal"
	case NuclearPlant:
		return "1 good and 1 energy"
	case PowerPlant:
		return strconv.Itoa(first) + " energy"
	case RecyclingPlant:
		return "1 good and 1 blueprint"
	case Refinery:
		return "3 metal"
	case Robot:
		return "an extra die, rolled"
	case TempAgency:
		if len(dice) == 1 {
			return "a new roll of 1 die"
		}
		return "a new roll of " + strconv.Itoa(len(dice)) + " dice"
	}
	return ""
}

// blackMarketGain is the printed cost of the blueprint sold, or the 4 of
// it chosen when it costs more.
func blackMarketGain(m Move) string {
	if len(m.Discard) != 1 {
		return ""
	}
	cost := m.Discard[0].Info()
	metal, energy := cost.Metal, cost.Energy
	if metal+energy > 4 {
		metal, energy = m.Metal, m.Energy
	}
	if metal+energy == 0 {
		return "nothing"
	}
	return costText(metal, energy)
}
