package bot

import (
	"slices"

	"github.com/smokestack/smokestack/engine/furnace"
)

// worth is what one unit of each resource is worth in money, as a rough
// guide: about what the common conversions pay for it (3 coal -> 4, 1 iron
// -> 2, 1 oil -> 4, 1 token -> 5 or an upgrade), a little less.
type worth struct {
	coal, iron, oil, tokens float64
}

// of is the money worth of g, money counted in full.
func (w worth) of(g furnace.Goods) float64 {
	return float64(g.Money) + w.coal*float64(g.Coal) + w.iron*float64(g.Iron) + w.oil*float64(g.Oil) + w.tokens*float64(g.Tokens)
}

var base = worth{coal: 1.0, iron: 1.6, oil: 3.2, tokens: 3.0}

// leftShare is the share of base worth a resource the seat's cards cannot
// sell keeps per production ahead: cards still to be won may sell it.
const leftShare = 0.15

// side is what one side of a card does, sorted for the simulation:
// its extractions added up, its conversions into other resources, and
// its sales (lines that pay money), best rate first.
type side struct {
	extract  furnace.Goods
	converts []furnace.Line
	sells    []sale
}

// sale is a line that pays money and its rateOrder, worked out once: the
// simulation sorts sales for every production it plays.
type sale struct {
	furnace.Line
	rate int
}

// sides holds each card's two sides (0 basic, 1 upgraded), and gain what
// upgrading a basic card adds per production at base worth. Both are
// computed once from the engine's read-only card tables.
var (
	sides [][2]side
	gain  []float64
)

func init() {
	n := furnace.NumCompanies() + len(furnace.StartCards())
	sides = make([][2]side, n+1)
	gain = make([]float64, n+1)
	for c := 1; c <= n; c++ {
		card := furnace.Card(c)
		for k, upgraded := range []bool{false, true} {
			sd := &sides[c][k]
			for _, l := range card.Lines(upgraded) {
				switch {
				case l.Upgrade:
				case !l.Processing():
					sd.extract = sd.extract.Plus(l.Gain)
				case l.Gain.Money > 0:
					sd.sells = append(sd.sells, sale{l, rateOrder(l)})
				default:
					sd.converts = append(sd.converts, l)
				}
			}
			slices.SortStableFunc(sd.sells, bestRateFirst)
		}
		if !card.IsStart() {
			l := card.Company().Upgraded
			gain[c] = base.of(l.Gain)
			if l.Processing() {
				gain[c] = float64(l.Times) * max(0, base.of(l.Gain)-base.of(l.Pay)) * 0.6
			}
		}
	}
}

// bestRateFirst orders sales by their rate, the best first.
func bestRateFirst(a, b sale) int { return b.rate - a.rate }

// rateOrder ranks a sale by money per base worth of what it pays, in
// thousandths, so better sales are made first.
func rateOrder(l furnace.Line) int {
	return int(1000 * float64(l.Gain.Money) / max(base.of(l.Pay), 0.01))
}

// value scores a seat's position in money: what it holds now and what its
// cards will make in the productions ahead (0 after the last), by a quick
// simulation of those productions with the cards it has. Resources left
// at the end count for little: only cards still to be won could sell them.
func value(p *furnace.Player, ahead int) float64 {
	return simulate(p, p.Goods, furnace.NoCard, ahead)
}

// simulate is value for seat p holding g instead of its goods, and card
// too if it is not NoCard.
func simulate(p *furnace.Player, g furnace.Goods, card furnace.Card, ahead int) float64 {
	if ahead == 0 {
		return float64(g.Money) + 0.01*float64(g.Resources())
	}
	var space [16]furnace.Owned
	cards := append(space[:0], p.Cards...)
	for _, c := range p.New {
		cards = append(cards, furnace.Owned{Card: c})
	}
	if card != furnace.NoCard {
		cards = append(cards, furnace.Owned{Card: card})
	}
	for r := range ahead {
		upgradeBest(cards, &g, p.Capitalist == furnace.Timur, ahead-r)
		g = produceOnce(cards, g)
	}
	left := base
	left.coal, left.iron, left.oil, left.tokens = left.coal*leftShare, left.iron*leftShare, left.oil*leftShare, left.tokens*leftShare
	return float64(g.Money) + float64(ahead)*(left.of(g)-float64(g.Money))
}

// upgradeBest spends coal and upgrade tokens (Timur: iron once the tokens
// are gone) on the basic cards whose upgrade adds most, while an upgrade
// pays for itself in the rounds left.
func upgradeBest(cards []furnace.Owned, g *furnace.Goods, timur bool, rounds int) {
	for g.Coal > 0 && (g.Tokens > 0 || (timur && g.Iron > 0)) {
		best := -1
		for i, o := range cards {
			if !o.Upgraded && int(o.Card) < len(gain) && gain[o.Card] > 0 && (best < 0 || gain[o.Card] > gain[cards[best].Card]) {
				best = i
			}
		}
		if best < 0 || float64(rounds)*gain[cards[best].Card] < base.coal+base.tokens {
			return
		}
		cards[best].Upgraded = true
		g.Coal--
		if g.Tokens > 0 {
			g.Tokens--
		} else {
			g.Iron--
		}
	}
}

// produceOnce plays one production of cards on g, the simple way: every
// extraction, then conversions as far as sales will take their output,
// then sales, the best rates first.
func produceOnce(cards []furnace.Owned, g furnace.Goods) furnace.Goods {
	var space [16]*side
	sds := space[:0]
	for _, o := range cards {
		if int(o.Card) >= len(sides) {
			continue
		}
		sd := &sides[o.Card][0]
		if o.Upgraded {
			sd = &sides[o.Card][1]
		}
		g = g.Plus(sd.extract)
		sds = append(sds, sd)
	}
	// What the sales could take of oil and tokens, which conversions make.
	var want furnace.Goods
	for _, sd := range sds {
		for _, l := range sd.sells {
			want = want.Plus(l.Pay.Times(l.Times))
		}
	}
	for _, sd := range sds {
		for _, l := range sd.converts {
			short := 0
			if l.Gain.Oil > 0 {
				short = (want.Oil - g.Oil + l.Gain.Oil - 1) / l.Gain.Oil
			}
			if l.Gain.Tokens > 0 {
				short = max(short, (want.Tokens-g.Tokens+l.Gain.Tokens-1)/l.Gain.Tokens)
			}
			if n := g.Affords(l.Pay, min(l.Times, short)); n > 0 {
				g = g.Minus(l.Pay.Times(n)).Plus(l.Gain.Times(n))
			}
		}
	}
	// Sales, best rates first across all cards.
	var lines [32]sale
	sells := lines[:0]
	for _, sd := range sds {
		sells = append(sells, sd.sells...)
	}
	slices.SortStableFunc(sells, bestRateFirst)
	for _, l := range sells {
		if n := g.Affords(l.Pay, l.Times); n > 0 {
			g = g.Minus(l.Pay.Times(n)).Plus(l.Gain.Times(n))
		}
	}
	return g
}

// productionsAhead counts the production phases a seat has still to play
// from a position: the current round's while it has not started or the
// seat is not done, and every later round's.
func productionsAhead(s *furnace.State, seat int) int {
	n := s.Config.Rounds - s.Round
	switch s.Phase {
	case furnace.AuctionPhase, furnace.ResolvePhase:
		n++
	case furnace.GameOver:
		return 0
	case furnace.ProductionPhase:
		if !s.Players[seat].Done {
			n++
		}
	}
	return n
}
