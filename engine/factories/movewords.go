package factories

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// Words words m for a menu in any language: the Words of DescribeFor's
// label, a part after another, which a screen words in its reader's
// language and joins as they come. A part's argument named Seat is a seat
// number the screen names (the gift's opponent). Worded in English, the
// parts read exactly as DescribeFor; the screens' tests hold them to it.
func (m Move) Words(v View) []engine.Words {
	w := moveWords{}
	switch m.Kind {
	case Refresh:
		w.add("factories.move.refresh_" + m.Row + "_" + m.Pay)
	case Take:
		w.add("factories.move.take", marketCard(v.Market.Blueprints, m.Slot))
	case Hire:
		name := ""
		if m.Slot >= 0 && m.Slot < marketSize {
			name = v.Market.Contractors[m.Slot].Name()
		}
		w.add("factories.move.hire", engine.CardArg("Card", name))
		w.discards(m.Discard, "factories.move.discarding")
		if gift(v.Market.Contractors, m.Slot) && v.Seats > 1 {
			w.add("factories.move.gift", engine.Str("Seat", strconv.Itoa(m.Opponent)))
		}
	case Pass:
		w.add("factories.move.pass")
	case SetDice:
		w.add("factories.move.foreman", engine.Str("Values", fmt.Sprint(m.Values)))
	case Choose:
		w.add("factories.move.specialist", engine.Num("Value", m.Value))
	case Build:
		w.add("factories.move.build", engine.CardArg("Card", m.Card.Name()))
		w.discards(m.Discard, "factories.move.discarding")
	case Place:
		w.add("factories.move.place", engine.Str("Dice", strings.TrimPrefix(m.dice(v), " with ")), engine.TermArg("Action", m.Action))
		w.placeGain(v, m)
	case Activate:
		w.activate(v, m)
	case DiscardDown:
		if len(m.Discard) > 0 {
			w.discards(m.Discard, "factories.move.discard_cards")
			break
		}
		w.add("factories.move.discard")
		w.cost(m.Metal, m.Energy, false)
	case Done:
		w.add("factories.move.done")
	case Undo:
		w.add("factories.move.undo")
	default:
		w.add("factories.move.kind", engine.Str("Kind", string(m.Kind)))
	}
	return w
}

// moveWords are a label's parts, made in order.
type moveWords []engine.Words

func (w *moveWords) add(id string, args ...engine.Arg) { *w = append(*w, engine.Say(id, args...)) }

// discards words cards given up, the first with id (", discarding
// Mine"), each other as " and Dojo".
func (w *moveWords) discards(cards []Card, id string) {
	for i, c := range cards {
		if i > 0 {
			id = "factories.move.and_card"
		}
		w.add(id, engine.CardArg("Card", c.Name()))
	}
}

// cost words metal and energy as costText does, "2 metal and 1 energy",
// as what is paid or given up (factories.pay.*: a language may word
// those apart from a gain) or, gained, as factories.gain.*.
func (w *moveWords) cost(metal, energy int, gained bool) {
	metalID, energyID := "factories.pay.metal", "factories.pay.energy"
	if gained {
		metalID, energyID = "factories.gain.metal", "factories.gain.energy"
	}
	if metal > 0 {
		w.add(metalID, engine.Num("N", metal))
	}
	if metal > 0 && energy > 0 {
		w.add("factories.move.and")
	}
	if energy > 0 || metal == 0 {
		w.add(energyID, engine.Num("N", energy))
	}
}

// placeGain words placeGain: ": 4 energy (+1 matching)".
func (w *moveWords) placeGain(v View, m Move) {
	if placeGain(v, m) == "" {
		return
	}
	you := v.You()
	d := you.Dice[m.Dice[0]].Value
	there := map[string][]int{Research: you.HQ.Research, Generate: you.HQ.Generate, Mine: you.HQ.Mine}[m.Action]
	bonus := 0
	for _, x := range there {
		if x == d {
			bonus = 1
		}
	}
	w.add("factories.move.gives")
	switch m.Action {
	case Research:
		w.add("factories.gain.draw", engine.Num("N", 1+bonus))
	case Generate:
		w.add("factories.gain.energy", engine.Num("N", d+bonus))
	case Mine:
		w.add("factories.gain.metal", engine.Num("N", 1+bonus))
	}
	if bonus > 0 {
		w.add("factories.move.matching")
	}
}

// activate words an Activate move as describeActivate does.
func (w *moveWords) activate(v View, m Move) {
	w.add("factories.move.activate", engine.CardArg("Card", m.Card.Name()))
	design := m.Card.Name()
	if m.Card.Name() == Replicator {
		design = marketName(v.Market.Blueprints, m.Slot)
		w.add("factories.move.as", marketCard(v.Market.Blueprints, m.Slot))
	}
	if d := m.dice(v); d != "" {
		w.add("factories.move.with", engine.Str("Dice", strings.TrimPrefix(d, " with ")))
	}
	w.discards(m.Discard, "factories.move.discarding")
	if m.Choice != "" {
		w.add("factories.move.for", engine.TermArg("Choice", m.Choice))
	}
	if m.Value != 0 {
		w.add("factories.move.value", engine.Num("Value", m.Value))
	}
	dice := m.diceValues(v)
	if activationResult(design, m, dice) != "" {
		w.add("factories.move.gives")
		w.gain(design, m, dice)
		if metal, energy := activationCost(design, m, dice); metal+energy > 0 {
			w.add("factories.move.paying")
			w.cost(metal, energy, false)
		}
		return
	}
	if m.Metal+m.Energy > 0 {
		w.add("factories.move.take_resources", engine.Num("Metal", m.Metal), engine.Num("Energy", m.Energy))
	}
}

// gain words activationGain: what the recipe gives.
func (w *moveWords) gain(name string, m Move, dice []int) {
	first := 0
	if len(dice) > 0 {
		first = dice[0]
	}
	n := func(id string, k int) { w.add(id, engine.Num("N", k)) }
	and := func() { w.add("factories.move.and") }
	flip := func(to int) { w.add("factories.gain.flip", engine.Num("From", first), engine.Num("To", to)) }
	switch name {
	case AluminumFactory:
		n("factories.gain.goods", 2)
		and()
		n("factories.gain.metal", 1)
	case AssemblyLine, ConcretePlant, TrashCompactor:
		n("factories.gain.goods", 2)
	case Warehouse:
		n("factories.gain.goods", 2)
		and()
		n("factories.gain.energy", 2)
	case BatteryFactory, Biolab:
		n("factories.gain.goods", 1)
	case BlackMarket:
		w.blackMarket(m)
	case Dojo:
		flip(7 - first)
	case FitnessCenter:
		flip(first - 1)
	case Gymnasium:
		flip(first + 1)
	case Foundry:
		n("factories.gain.metal", first)
	case FulfillmentCenter, NuclearPlant, RecyclingPlant:
		n("factories.gain.goods", 1)
		and()
		n(map[string]string{FulfillmentCenter: "factories.gain.metal", NuclearPlant: "factories.gain.energy",
			RecyclingPlant: "factories.gain.blueprints"}[name], 1)
	case Golem:
		w.add("factories.gain.die", engine.Num("Value", m.Value))
	case Harvester:
		w.oneOf(m.Choice, 4, 7, 0)
	case Incinerator:
		n("factories.gain.energy", 6)
	case Manufactory:
		n("factories.gain.goods", 1)
		and()
		w.oneOf(m.Choice, 2, 3, 2)
	case MegaFactory:
		n("factories.gain.goods", 2)
		w.add("factories.move.and")
		w.add("factories.gain.die", engine.Num("Value", m.Value))
	case Motherlode:
		n("factories.gain.metal", map[bool]int{true: 2, false: 1}[first >= 4])
	case PowerPlant:
		n("factories.gain.energy", first)
	case Refinery:
		n("factories.gain.metal", 3)
	case Robot:
		w.add("factories.gain.robot")
	case TempAgency:
		n("factories.gain.reroll", len(dice))
	}
}

// oneOf words the metal, energy or draw a choice brings.
func (w *moveWords) oneOf(choice string, metal, energy, draw int) {
	switch choice {
	case "metal":
		w.add("factories.gain.metal", engine.Num("N", metal))
	case "energy":
		w.add("factories.gain.energy", engine.Num("N", energy))
	case "draw":
		w.add("factories.gain.blueprints", engine.Num("N", draw))
	}
}

// blackMarket words blackMarketGain.
func (w *moveWords) blackMarket(m Move) {
	if len(m.Discard) != 1 {
		return
	}
	cost := m.Discard[0].Info()
	metal, energy := cost.Metal, cost.Energy
	if metal+energy > 4 {
		metal, energy = m.Metal, m.Energy
	}
	if metal+energy == 0 {
		w.add("factories.gain.nothing")
		return
	}
	w.cost(metal, energy, true)
}

// marketCard is the card in a marketplace slot, or "an empty slot".
func marketCard(row [marketSize]Card, slot int) engine.Arg {
	if slot < 0 || slot >= marketSize || row[slot] == None {
		return engine.Str("Card", "an empty slot")
	}
	return engine.CardArg("Card", row[slot].Name())
}
