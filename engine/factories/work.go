package factories

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// work applies a work-phase move. Seats act simultaneously: moves of
// different seats may arrive in any order, and shared draws happen in the
// order moves are applied.
func (g *game) work(m Move) error {
	p := g.me()
	if p.Done {
		return refuse("done", "you are done with this work phase; wait for the others")
	}
	if p.SettingDice && m.Kind != SetDice {
		return refuse("foreman_first", "choose your Foreman dice values first")
	}
	switch m.Kind {
	case SetDice:
		return g.setDice(m)
	case Choose:
		return g.choose(m)
	case Build:
		return g.build(m)
	case Place:
		return g.place(m)
	case Activate:
		return g.activate(m)
	case DiscardDown:
		return g.discardDown(m)
	case Done:
		return g.done()
	}
	return refuse("not_work_move", fmt.Sprintf("%q is not a work phase move", m.Kind), quoted("Kind", string(m.Kind)))
}

func (g *game) setDice(m Move) error {
	p := g.me()
	if !p.SettingDice {
		return refuse("no_foreman", "you have no Foreman dice to set")
	}
	if len(m.Values) > 4 {
		return refuse("foreman_4", "the Foreman sets at most 4 dice")
	}
	for _, v := range m.Values {
		if v < 1 || v > 6 {
			return refuse("face", fmt.Sprintf("a die shows 1 to 6, not %d", v), num("Value", v))
		}
	}
	values := m.Values
	for i := range p.Dice {
		if len(values) == 0 {
			break
		}
		if !p.Dice[i].Chosen {
			p.Dice[i].Value, values = values[0], values[1:]
		}
	}
	g.rollUnset(p)
	p.SettingDice = false
	if g.wording() {
		set, dice := fmt.Sprint(m.Values), diceText(p.Dice)
		g.emit(g.seat, "roll", engine.Say("factories.log.foremanset", engine.Str("Values", set), engine.Str("Dice", dice), engine.CardArg("Card", Foreman)),
			"set ", set, " with the Foreman; dice now ", dice)
	}
	return nil
}

func (g *game) choose(m Move) error {
	p := g.me()
	if len(m.Dice) != 1 || m.Dice[0] < 0 || m.Dice[0] >= len(p.Dice) {
		return refuse("specialist_die", "name the Specialist die to set")
	}
	d := &p.Dice[m.Dice[0]]
	if !d.Chosen || d.Value != 0 {
		return refuse("specialist_unset", "only an unset Specialist die can be given a value")
	}
	if m.Value < 1 || m.Value > 6 {
		return refuse("face", fmt.Sprintf("a die shows 1 to 6, not %d", m.Value), num("Value", m.Value))
	}
	d.Value = m.Value
	if g.wording() {
		g.emit(g.seat, "choose", engine.Say("factories.log.specialist", engine.Num("Value", m.Value), engine.CardArg("Card", Specialist)), "set the Specialist die to ", strconv.Itoa(m.Value))
	}
	return nil
}

// buildCost is what c costs seat now: Megalith is 1 metal cheaper for each
// Monument already in the compound, down to 0.
func buildCost(p *Player, c Card) (metal, energy int) {
	f := c.facts()
	metal, energy = f.metal, f.energy
	if f.megalith {
		for _, have := range p.Compound {
			if have.Card.facts().monument {
				metal--
			}
		}
		metal = max(metal, 0)
	}
	return metal, energy
}

// canOwn refuses a second copy of a card, except Obelisk and Beacon.
func canOwn(p *Player, c Card) error {
	if owns(p, c) {
		return refuse("own", "you already have a "+c.Name()+"; only Obelisk and Beacon may be built more than once", card("Card", c))
	}
	return nil
}

// owns reports whether p has a c it may not build again.
func owns(p *Player, c Card) bool {
	// By design, not by name: Legal asks this of every build it lists.
	f := c.facts()
	if f.multiple {
		return false
	}
	d := f.design
	for _, b := range p.Compound {
		if design(b.Card) == d {
			return true
		}
	}
	return false
}

func (g *game) build(m Move) error {
	p := g.me()
	if indexOf(p.Hand, m.Card) < 0 {
		return refuse("build_hand", "you can only build a blueprint from your hand")
	}
	if len(m.Discard) != 1 || m.Discard[0] == m.Card {
		return refuse("build_discard", fmt.Sprintf("building %s needs another %s blueprint from your hand to discard", m.Card.Name(), m.Card.Info().Tool),
			card("Card", m.Card), tool("Tool", m.Card.Info().Tool))
	}
	if indexOf(p.Hand, m.Discard[0]) < 0 {
		return refuse("discard_not_in_hand", "the blueprint to discard is not in your hand")
	}
	if d := m.Discard[0]; d.Info().Tool != m.Card.Info().Tool {
		return refuse("build_tool", fmt.Sprintf("%s needs a %s blueprint to discard; %s has a %s", m.Card.Name(), m.Card.Info().Tool, d.Name(), d.Info().Tool),
			card("Card", m.Card), tool("Tool", m.Card.Info().Tool), card("Discard", d), tool("Has", d.Info().Tool))
	}
	if err := canOwn(p, m.Card); err != nil {
		return err
	}
	metal, energy := buildCost(p, m.Card)
	if p.Metal < metal || p.Energy < energy {
		return refuse("build_cost", fmt.Sprintf("%s costs %d metal and %d energy; you have %d and %d", m.Card.Name(), metal, energy, p.Metal, p.Energy),
			card("Card", m.Card), num("Metal", metal), num("Energy", energy), num("HaveMetal", p.Metal), num("HaveEnergy", p.Energy))
	}
	if err := takeFromHand(p, m.Card, m.Discard[0]); err != nil {
		return err
	}
	p.Metal -= metal
	p.Energy -= energy
	g.Discard = append(g.Discard, m.Discard[0])
	g.addBuilding(m.Card, "")
	g.revealed = "a build shows a card from your hand, so it stands"
	return nil
}

// addBuilding puts c into the seat's compound and fires Scrap Yard and
// Solar Array, each once a round and never for its own building; how ends
// the event's text ("built Biolab" and how).
func (g *game) addBuilding(c Card, how string) {
	p := g.me()
	p.Compound = append(p.Compound, Building{Card: c})
	id := "factories.log.build"
	if how != "" {
		id = "factories.log.buildfree"
	}
	if g.wording() {
		g.emit(g.seat, "build", engine.Say(id, engine.CardArg("Card", c.Name()), engine.CardArg("By", Engineer)), "built ", c.Name(), how)
	}
	name := c.Name()
	if name != ScrapYard && !p.ScrapUsed && hasBuilding(p, ScrapYard) {
		p.ScrapUsed = true
		p.Metal++
		if g.wording() {
			g.emit(g.seat, "trigger", engine.Say("factories.log.trigger", gains("Gain", amount(nMetal, 1)), engine.CardArg("Card", ScrapYard)), "gained 1 metal (Scrap Yard)")
		}
	}
	if name != SolarArray && !p.SolarUsed && hasBuilding(p, SolarArray) {
		p.SolarUsed = true
		p.Energy += 2
		if g.wording() {
			g.emit(g.seat, "trigger", engine.Say("factories.log.trigger", gains("Gain", amount(nEnergy, 2)), engine.CardArg("Card", SolarArray)), "gained 2 energy (Solar Array)")
		}
	}
}

// workers checks that the dice named by idx are the seat's own, distinct,
// unplaced and showing a value, and returns their values appended to vals.
func workers(p *Player, idx []int, vals []int) ([]int, error) {
	for i, d := range idx {
		if d < 0 || d >= len(p.Dice) {
			return nil, refuse("no_die", fmt.Sprintf("you have no die number %d", d+1), num("Die", d+1))
		}
		if slices.Contains(idx[:i], d) {
			return nil, refuse("die_twice", "each die can be used only once")
		}
		switch die := p.Dice[d]; {
		case die.Placed:
			return nil, refuse("placed", fmt.Sprintf("that %d is already placed", die.Value), num("Value", die.Value))
		case die.Value == 0:
			return nil, refuse("unset", "choose that die's value first")
		}
		vals = append(vals, p.Dice[d].Value)
	}
	return vals, nil
}

func placeDice(p *Player, idx []int) {
	for _, d := range idx {
		p.Dice[d].Placed = true
	}
}

// hqAction returns the workers already on a Headquarters action, or nil
// for an action that does not exist.
func hqAction(p *Player, action string) *[]int {
	switch action {
	case Research:
		return &p.HQ.Research
	case Generate:
		return &p.HQ.Generate
	case Mine:
		return &p.HQ.Mine
	}
	return nil
}

// hqTakes reports whether a die showing v may work on action: Research
// takes any value, Generate 1-3 and Mine 4-6.
func hqTakes(action string, v int) bool {
	switch action {
	case Generate:
		return v <= 3
	case Mine:
		return v >= 4
	}
	return true
}

func (g *game) place(m Move) error {
	p := g.me()
	if len(m.Dice) != 1 {
		return refuse("hq_one", "place one die at a time on your Headquarters")
	}
	var space [1]int
	vals, err := workers(p, m.Dice, space[:0])
	if err != nil {
		return err
	}
	v := vals[0]
	slot := hqAction(p, m.Action)
	switch {
	case slot == nil:
		return refuse("hq_action", "place a die on research, generate or mine")
	case !hqTakes(m.Action, v) && m.Action == Generate:
		return refuse("generate", fmt.Sprintf("Generate takes a 1, 2 or 3, not a %d", v), num("Value", v))
	case !hqTakes(m.Action, v):
		return refuse("mine", fmt.Sprintf("Mine takes a 4, 5 or 6, not a %d", v), num("Value", v))
	case len(*slot) >= 3:
		return refuse("hq_full", m.Action+" already has 3 workers", engine.TermArg("Action", m.Action))
	}
	// Matching bonus: one extra for each worker that matches one already
	// there, so three alike give two extra in total.
	bonus := 0
	if slices.Contains(*slot, v) {
		bonus = 1
	}
	*slot = append(*slot, v)
	placeDice(p, m.Dice)
	why, suffix := "", ""
	if bonus > 0 {
		why, suffix = " (+1 for matching a die already there)", ".bonus"
	}
	switch m.Action {
	case Research:
		research := whyResearch
		if bonus > 0 {
			research = whyResearchBonus
		}
		g.drawTo(g.seat, 1+bonus, research)
	case Generate:
		p.Energy += v + bonus
		if g.wording() {
			g.emit(g.seat, "generate", engine.Say("factories.log.generate"+suffix, gains("Gain", amount(nEnergy, v+bonus)), engine.Num("Value", v)),
				"generated ", strconv.Itoa(v+bonus), " energy with a ", strconv.Itoa(v), why)
		}
	case Mine:
		p.Metal += 1 + bonus
		if g.wording() {
			g.emit(g.seat, "mine", engine.Say("factories.log.mine"+suffix, gains("Gain", amount(nMetal, 1+bonus)), engine.Num("Value", v)),
				"mined ", strconv.Itoa(1+bonus), " metal with a ", strconv.Itoa(v), why)
		}
	}
	return nil
}

func (g *game) discardDown(m Move) error {
	p := g.me()
	if m.Metal < 0 || m.Energy < 0 || m.Metal > p.Metal || m.Energy > p.Energy {
		return refuse("discard_more", "you cannot discard more metal or energy than you have")
	}
	if over := p.Metal + p.Energy - StoreLimit; m.Metal+m.Energy > max(over, 0) {
		return refuse("discard_resources", fmt.Sprintf("you may discard resources only down to %d; you are %d over", StoreLimit, max(over, 0)),
			num("Limit", StoreLimit), num("N", max(over, 0)))
	}
	if over := len(p.Hand) - HandLimit; len(m.Discard) > max(over, 0) {
		return refuse("discard_cards", fmt.Sprintf("you may discard cards only down to %d in hand; you are %d over", HandLimit, max(over, 0)),
			num("Limit", HandLimit), num("N", max(over, 0)))
	}
	if len(m.Discard)+m.Metal+m.Energy == 0 {
		return refuse("discard_nothing", "choose something to discard")
	}
	if err := takeFromHand(p, m.Discard...); err != nil {
		return err
	}
	g.Discard = append(g.Discard, m.Discard...)
	p.Metal -= m.Metal
	p.Energy -= m.Energy
	if !g.wording() {
		return nil
	}
	var gave []string
	var words []engine.Words
	if len(m.Discard) > 0 {
		gave, words = append(gave, plural(len(m.Discard), "blueprint")), append(words, amount(nBlueprints, len(m.Discard)))
	}
	if m.Metal > 0 {
		gave, words = append(gave, fmt.Sprintf("%d metal", m.Metal)), append(words, amount(nMetal, m.Metal))
	}
	if m.Energy > 0 {
		gave, words = append(gave, fmt.Sprintf("%d energy", m.Energy)), append(words, amount(nEnergy, m.Energy))
	}
	g.emit(g.seat, "discard", engine.Say("factories.log.discard", engine.ListArg("Gave", words...)), "discarded ", joinNames(gave), " to meet the limits")
	return nil
}

func (g *game) done() error {
	p := g.me()
	if over := p.Metal + p.Energy - StoreLimit; over > 0 {
		return refuse("done_resources", fmt.Sprintf("discard %d metal or energy first: at most %d resources at the end of the round", over, StoreLimit),
			num("N", over), num("Limit", StoreLimit))
	}
	if over := len(p.Hand) - HandLimit; over > 0 {
		return refuse("done_cards", fmt.Sprintf("discard %s first: at most %d cards in hand at the end of the round", plural(over, "blueprint"), HandLimit),
			num("N", over), num("Limit", HandLimit))
	}
	p.Done = true
	g.emit(g.seat, "done", engine.Say("factories.log.done"), "finished the work phase")
	for _, q := range g.Players {
		if !q.Done {
			return nil
		}
	}
	g.endRound()
	return nil
}
