package factories

import (
	"fmt"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// market applies a market-phase move: the acting seat refreshes a row,
// takes a blueprint or hires a contractor.
func (g *game) market(m Move) error {
	if g.seat != g.Turn {
		return refuse("not_your_turn", "it is not your turn in the market phase: wait for yours")
	}
	p := g.me()
	switch m.Kind {
	case Refresh:
		return g.refresh(m)
	case Take:
		if err := checkSlot(m.Slot); err != nil {
			return err
		}
		c := g.Market.Blueprints[m.Slot]
		if c == None {
			return refuse("empty_slot", "that marketplace slot is empty")
		}
		p.Hand = append(p.Hand, c)
		g.Market.Blueprints[m.Slot] = None
		g.emitCard(g.seat, "take", "factories.log.take", c.Name(), "took ", c.Name(), " from the marketplace")
	case Hire:
		if err := g.hire(m); err != nil {
			return err
		}
	case Pass:
		if canDraft(g.State, g.seat) {
			return refuse("cannot_pass", "you can take a blueprint or hire a contractor, so you cannot pass")
		}
		g.emit(g.seat, "pass", engine.Say("factories.log.pass"), "passed: nothing to take or hire")
	default:
		return refuse("not_market_move", fmt.Sprintf("%q is not a market phase move: take a blueprint, hire a contractor or refresh a row", m.Kind), quoted("Kind", string(m.Kind)))
	}
	g.restock()
	g.endMarketTurn()
	return nil
}

func checkSlot(slot int) error {
	if slot < 0 || slot >= marketSize {
		return refuse("slots", fmt.Sprintf("marketplace slots are numbered 0 to %d", marketSize-1), num("Last", marketSize-1))
	}
	return nil
}

func (g *game) refresh(m Move) error {
	if g.Refreshed {
		return refuse("refreshed", "you already refreshed the marketplace this turn")
	}
	p := g.me()
	switch m.Pay {
	case "metal":
		if p.Metal < 1 {
			return refuse("refresh_metal", "refreshing costs 1 metal and you have none")
		}
	case "energy":
		if p.Energy < 1 {
			return refuse("refresh_energy", "refreshing costs 1 energy and you have none")
		}
	default:
		return refuse("refresh_pay", "pay for a refresh with metal or energy")
	}
	if m.Row != BlueprintRow && m.Row != ContractorRow {
		return refuse("refresh_row", "refresh either the blueprints or the contractors row")
	}
	if m.Pay == "metal" {
		p.Metal--
	} else {
		p.Energy--
	}
	switch m.Row {
	case BlueprintRow:
		for i, c := range g.Market.Blueprints {
			if c != None {
				g.Discard = append(g.Discard, c)
			}
			g.Market.Blueprints[i] = None
		}
	case ContractorRow:
		for i, c := range g.Market.Contractors {
			if c != None {
				g.ContractorDiscard = append(g.ContractorDiscard, c)
			}
			g.Market.Contractors[i] = None
		}
	}
	g.Refreshed = true
	if g.wording() {
		cost := amount(nEnergy, 1)
		if m.Pay == "metal" {
			cost = amount(nMetal, 1)
		}
		row := engine.Say("factories.log.row.blueprints")
		if m.Row == ContractorRow {
			row = engine.Say("factories.log.row.contractors")
		}
		g.emit(g.seat, "refresh", engine.Say("factories.log.refresh", engine.ListArg("Cost", cost), engine.ListArg("Row", row)),
			"paid 1 ", m.Pay, " to refresh the ", m.Row)
	}
	g.restock()
	return nil
}

func (g *game) hire(m Move) error {
	if err := checkSlot(m.Slot); err != nil {
		return err
	}
	c := g.Market.Contractors[m.Slot]
	if c == None {
		return refuse("empty_contractor", "that contractor slot is empty")
	}
	info := c.Info()
	if err := g.canHire(m, info); err != nil {
		return err
	}
	p, opp := g.me(), m.Opponent
	if err := takeFromHand(p, m.Discard[0]); err != nil {
		return err
	}
	p.Energy -= info.Energy
	g.Discard = append(g.Discard, m.Discard[0])
	g.Market.Contractors[m.Slot] = None
	g.ContractorDiscard = append(g.ContractorDiscard, c)
	g.emitCard(g.seat, "hire", "factories.log.hire", info.Name, "hired the ", info.Name)
	// Gifts to opponents are ignored in solo play.
	giveTo := func(f func(q *Player)) {
		if !g.Solo() {
			f(&g.Players[opp])
		}
	}
	switch info.Name {
	case Architect:
		g.drawTo(g.seat, 3, Architect)
		if !g.Solo() {
			g.drawTo(opp, 1, giftOfArchitect)
		}
	case Electrician:
		p.Energy += 5
		giveTo(func(q *Player) { q.Energy += 2 })
		g.giftEvent(opp, 2, "energy")
	case Miner:
		p.Metal += 3
		giveTo(func(q *Player) { q.Metal++ })
		g.giftEvent(opp, 1, "metal")
	case Engineer:
		g.engineer()
	case Foreman:
		p.Foreman = true
	case HiredHands:
		p.HiredHands++
	case Specialist:
		p.Specialists++
	case Investor:
		card, ok := g.draw()
		if !ok {
			g.emitCard(g.seat, "deck", "factories.log.investnone", Investor, "the blueprint deck is empty: the Investor finds nothing")
			break
		}
		b := card.Info()
		p.Metal += b.Metal
		p.Energy += b.Energy
		g.Discard = append(g.Discard, card)
		if g.wording() {
			g.emit(g.seat, "invest", engine.Say("factories.log.invest", engine.CardArg("Card", b.Name), gains("Gain", amount(nMetal, b.Metal), amount(nEnergy, b.Energy))),
				"revealed ", b.Name, " and gained ", strconv.Itoa(b.Metal), " metal and ", strconv.Itoa(b.Energy), " energy")
		}
	}
	return nil
}

// canHire checks what hiring the contractor info in m's slot asks of the
// seat: one blueprint of the slot's tool to discard, the energy, and an
// opponent for a gift.
func (g *game) canHire(m Move, info ContractorCard) error {
	slotTool, p := g.Market.Tools[m.Slot], g.me()
	if len(m.Discard) != 1 {
		return refuse("hire_discard", fmt.Sprintf("hiring the %s needs one %s blueprint from your hand to discard", info.Name, slotTool),
			engine.CardArg("Card", info.Name), tool("Tool", slotTool))
	}
	if indexOf(p.Hand, m.Discard[0]) < 0 {
		return refuse("hire_not_in_hand", fmt.Sprintf("the blueprint to discard for the %s is not in your hand", info.Name), engine.CardArg("Card", info.Name))
	}
	if d := m.Discard[0]; d.Info().Tool != slotTool {
		return refuse("hire_tool", fmt.Sprintf("the %s slot needs a %s blueprint; %s has a %s", info.Name, slotTool, d.Name(), d.Info().Tool),
			engine.CardArg("Card", info.Name), tool("Tool", slotTool), card("Discard", d), tool("Has", d.Info().Tool))
	}
	if p.Energy < info.Energy {
		return refuse("hire_energy", fmt.Sprintf("the %s costs %d energy on top of the blueprint; you have %d", info.Name, info.Energy, p.Energy),
			engine.CardArg("Card", info.Name), num("N", info.Energy), num("Have", p.Energy))
	}
	if opp := m.Opponent; gift(g.Market.Contractors, m.Slot) && !g.Solo() && (opp < 0 || opp >= len(g.Players) || opp == g.seat) {
		return refuse("hire_opponent", fmt.Sprintf("pick an opponent to receive the %s's gift", info.Name), engine.CardArg("Card", info.Name))
	}
	return nil
}

func (g *game) giftEvent(opp, n int, thing string) {
	if !g.Solo() && g.wording() {
		g.emit(opp, "gift", engine.Say("factories.log.gift", engine.ListArg("Gift", amount("factories.log.n."+thing, n))),
			"received ", strconv.Itoa(n), " ", thing)
	}
}

// engineer reveals blueprints until one the seat may build, and builds it
// for free. Cards it may not build go to the discard pile; the search gives
// up once it has looked at every card once, so it always ends.
func (g *game) engineer() {
	for range NumCards() {
		c, ok := g.draw()
		if !ok {
			break
		}
		if err := canOwn(g.me(), c); err != nil {
			g.Discard = append(g.Discard, c)
			g.emitCard(g.seat, "reveal", "factories.log.reveal", c.Name(), "revealed ", c.Name(), " but cannot build it")
			continue
		}
		g.addBuilding(c, " for free (Engineer)")
		return
	}
	g.emitCard(g.seat, "deck", "factories.log.engineernone", Engineer, "the Engineer found nothing to build")
}

// canDraft reports whether seat can take or hire anything.
func canDraft(s *State, seat int) bool {
	for _, c := range s.Market.Blueprints {
		if c != None {
			return true
		}
	}
	p := &s.Players[seat]
	for i, c := range s.Market.Contractors {
		if c == None || p.Energy < c.info().Energy {
			continue
		}
		for _, h := range p.Hand {
			if h.info().Tool == s.Market.Tools[i] {
				return true
			}
		}
	}
	return false
}

func (g *game) endMarketTurn() {
	g.Refreshed = false
	g.Turns++
	if g.Turns < len(g.Players) {
		g.Turn = (g.Turn + 1) % len(g.Players)
		return
	}
	g.startWork()
}

// startWork rolls everyone's dice, with the extra dice and Foreman choices
// that contractors hired this round bring.
func (g *game) startWork() {
	g.Phase = WorkPhase
	for seat := range g.Players {
		p := &g.Players[seat]
		p.Done = false
		p.Dice = p.Dice[:0]
		for range startDice {
			p.Dice = append(p.Dice, Die{})
		}
		for range 2 * p.HiredHands {
			p.Dice = append(p.Dice, Die{Extra: true})
		}
		if p.Foreman {
			p.SettingDice = true
			g.emitCard(seat, "foreman", "factories.log.foreman", Foreman, "chooses dice values (Foreman)")
		} else {
			g.rollUnset(p)
			if g.wording() {
				dice := diceText(p.Dice)
				g.emit(seat, "roll", engine.Say("factories.log.roll", engine.Str("Dice", dice)), "rolled ", dice)
			}
		}
		for range p.Specialists {
			p.Dice = append(p.Dice, Die{Extra: true, Chosen: true})
		}
		p.Foreman, p.HiredHands, p.Specialists = false, 0, 0
	}
}

// rollUnset rolls every die without a value, except Specialist dice whose
// value the player chooses.
func (g *game) rollUnset(p *Player) {
	for i := range p.Dice {
		if p.Dice[i].Value == 0 && !p.Dice[i].Chosen {
			p.Dice[i].Value = g.RNG.Die()
		}
	}
}

func diceText(dice []Die) string {
	var space [32]byte
	s := space[:0]
	for _, d := range dice {
		if d.Value == 0 {
			continue
		}
		if len(s) > 0 {
			s = append(s, ' ')
		}
		s = strconv.AppendInt(s, int64(d.Value), 10)
	}
	return string(s)
}
