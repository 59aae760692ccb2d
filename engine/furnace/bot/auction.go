package bot

import "github.com/smokestack/smokestack/engine/furnace"

// Chances that a rival outbids a disc on a card: a seat that still holds a
// higher disc it may put there, and the Agent, which places by the die.
const (
	rivalThreat = 0.45
	agentThreat = 0.15
)

// bid returns the placement with the best expected worth.
func (g *greedy) bid(v *furnace.View) furnace.Move {
	ahead := v.Config.Rounds - v.Round + 1
	best, bestValue := v.Legal[0], -1e18
	for _, m := range v.Legal {
		var val float64
		if m.Neutral {
			val = discWorth(v, v.Seat, m.Card, 2, ahead)
		} else {
			val = discWorth(v, v.Seat, m.Card, m.Disc, ahead)
		}
		if m.Extra != furnace.NoCard {
			val += discWorth(v, v.Seat, m.Extra, 2, ahead)
		}
		// A small preference for keeping big discs for later cards.
		val -= 0.05 * float64(m.Disc)
		if val > bestValue {
			best, bestValue = m, val
		}
	}
	return best
}

// discWorth is what a disc of value d on card c is expected to bring seat:
// what owning the card adds to its position if the disc wins, the
// compensation if not.
func discWorth(v *furnace.View, seat int, c furnace.Card, d, ahead int) float64 {
	lot := lotOf(v, c)
	if lot == nil {
		return 0
	}
	p := &v.Players[seat]
	now := value(p, ahead)
	win := winChance(v, seat, lot, d)
	k := d
	if p.Capitalist == furnace.Henry {
		k++
	}
	var owned float64
	if win > 0 {
		owned = simulate(p, p.Goods, c, ahead) - now
	}
	return win*owned + (1-win)*(compensationWorth(p, c, k, ahead)-now)
}

func lotOf(v *furnace.View, c furnace.Card) *furnace.Lot {
	for i := range v.Market {
		if v.Market[i].Card == c {
			return &v.Market[i]
		}
	}
	return nil
}

// compensationWorth is the value of seat p's position after taking card
// c's compensation k times: an extraction in full, a processing as often
// as is best of what it can pay now.
func compensationWorth(p *furnace.Player, c furnace.Card, k, ahead int) float64 {
	line := c.Company().Compensation
	if !line.Processing() {
		return simulate(p, p.Goods.Plus(line.Gain.Times(k)), furnace.NoCard, ahead)
	}
	best := value(p, ahead)
	for n := 1; n <= p.Goods.Affords(line.Pay, k); n++ {
		best = max(best, simulate(p, p.Goods.Minus(line.Pay.Times(n)).Plus(line.Gain.Times(n)), furnace.NoCard, ahead))
	}
	return best
}

// winChance estimates the chance that seat's disc of value d ends highest
// on lot: none if a disc there already beats it, and less for each rival
// that may still put a higher disc there.
func winChance(v *furnace.View, seat int, lot *furnace.Lot, d int) float64 {
	monica := v.Players[seat].Capitalist == furnace.Monica
	for _, x := range lot.Discs {
		switch {
		case x.Value > d:
			return 0
		case x.Value == d && (monica || !(x.Seat >= 0 && v.Players[x.Seat].Capitalist == furnace.Monica)):
			// A tie: Monica loses it, and anyone else wins it only
			// against her.
			return 0
		}
	}
	chance := 1.0
	for q := range v.Players {
		if q == seat || v.Players[q].Out {
			continue
		}
		if mayTop(v, q, lot, d, v.Players[q].Discs) {
			chance *= 1 - rivalThreat
		}
	}
	if a := v.Agent; a != nil && !a.Out && mayTop(v, furnace.AgentSeat, lot, d, a.Discs) {
		chance *= 1 - agentThreat
	}
	return chance
}

// mayTop reports whether placer (a seat or the Agent) holds a disc above d
// that the placement rules let it put on lot.
func mayTop(v *furnace.View, placer int, lot *furnace.Lot, d int, discs furnace.Discs) bool {
	monica := placer >= 0 && v.Players[placer].Capitalist == furnace.Monica
	for u := d + 1; u <= 4; u++ {
		if !discs.Has(u) {
			continue
		}
		if monica {
			return true
		}
		fits := true
		for _, x := range lot.Discs {
			if x.Value == u || x.Seat == placer {
				fits = false
				break
			}
		}
		if fits {
			return true
		}
	}
	return false
}
