package furnace

import (
	"fmt"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// resolve resolves the market left to right: each card's losing discs are
// compensated, and its highest disc wins it and takes it off the market.
// It stops at a card whose processing compensation some seats must
// choose, and goes on when they have (compensate); after the last card
// the production phase begins.
func (g *game) resolve() {
	for len(g.Market) > 0 {
		if g.payCompensation() {
			return
		}
		g.award()
	}
	g.startProduction()
}

// Winner returns the index in l.Discs of the disc that wins the card, or
// -1 when there is none: the highest, and on a tie (only Monica can tie)
// the disc that is not Monica's, as she loses ties.
func (s *State) Winner(l Lot) int {
	best := -1
	for j, d := range l.Discs {
		if best < 0 {
			best = j
			continue
		}
		b := l.Discs[best]
		if d.Value > b.Value || (d.Value == b.Value && s.losesTies(b) && !s.losesTies(d)) {
			best = j
		}
	}
	return best
}

func (s *State) losesTies(d Disc) bool {
	return d.Seat >= 0 && s.Players[d.Seat].Capitalist == Monica
}

// payCompensation compensates every disc on the leftmost card but the
// winner's (and the Agent's, which gets nothing): an extraction is paid at
// once, the disc's value times (Henry's discs count 1 higher); a
// processing is owed, up to that many times, to be chosen. It reports
// whether some seat has a choice to make.
func (g *game) payCompensation() bool {
	l := &g.Market[0]
	w := g.Winner(*l)
	// The card's fate is told first: the losers' compensation reads as
	// what follows from it.
	g.announce(*l, w)
	line := l.Card.compensation()
	for j, d := range l.Discs {
		if j == w || d.Seat == AgentSeat {
			continue
		}
		p := &g.Players[d.Seat]
		k := g.compensationTimes(d)
		if line.Processing() {
			p.Owed += k
			continue
		}
		gain := line.Gain.Times(k)
		p.Goods = p.Goods.Plus(gain)
		if g.log {
			g.emit(d.Seat, "compensation", fmt.Sprintf("received %s in compensation for %s (%s)", gain, l.Card, g.discWords(d)),
				engine.Say("furnace.log.compensation", engine.ListArg("Gain", goodsWords(gain)), engine.Str("Card", l.Card.ID()), g.discArg(d)))
		}
	}
	waiting := false
	for seat := range g.Players {
		p := &g.Players[seat]
		if p.Owed == 0 {
			continue
		}
		if p.Goods.Affords(line.Pay, 1) == 0 {
			p.Owed = 0
			if g.log {
				g.emit(seat, "compensation", fmt.Sprintf("cannot pay %s for the compensation of %s", line.Pay, l.Card),
					engine.Say("furnace.log.compensation.cannot", engine.ListArg("Pay", goodsWords(line.Pay)), engine.Str("Card", l.Card.ID())))
			}
			continue
		}
		waiting = true
	}
	return waiting
}

// discWords names a disc for its compensation: "disc 1", and for Henry,
// whose discs count one higher, "disc 1, +1 Henry".
func (s *State) discWords(d Disc) string {
	if s.Players[d.Seat].Capitalist == Henry {
		return fmt.Sprintf("disc %d, +1 Henry", d.Value)
	}
	return fmt.Sprintf("disc %d", d.Value)
}

// compensationTimes is the multiplier of a disc's compensation: its value,
// one more for Henry.
func (s *State) compensationTimes(d Disc) int {
	if s.Players[d.Seat].Capitalist == Henry {
		return d.Value + 1
	}
	return d.Value
}

// compensate processes the owed compensation of the card being resolved n
// times (0 declines), and resolves on once nobody owes a choice.
func (g *game) compensate(n int) error {
	p := g.me()
	l := g.Market[0]
	if p.Owed == 0 {
		return refuse(fmt.Sprintf("you have no compensation to take on %s", l.Card), "furnace.refuse.noneOwed", cardArg("Card", l.Card))
	}
	line := l.Card.compensation()
	switch {
	case n < 0:
		return refuse("the number of times cannot be negative", "furnace.refuse.negative")
	case n > p.Owed:
		return refuse(fmt.Sprintf("your discs on %s allow at most %d", l.Card, p.Owed), "furnace.refuse.owed",
			cardArg("Card", l.Card), engine.Num("N", p.Owed))
	case !p.Goods.Covers(line.Pay.Times(n)):
		return refuse(fmt.Sprintf("processing %s%s needs %s; you have %s", line, times(n), line.Pay.Times(n), p.Goods.of(line.Pay)),
			"furnace.refuse.cannotPayCompensation", append(goodsArgs(p.Goods), cardArg("Card", l.Card), engine.Num("N", n))...)
	}
	p.Goods = p.Goods.Minus(line.Pay.Times(n)).Plus(line.Gain.Times(n))
	p.Owed = 0
	if g.log {
		text, w := "took no compensation for "+l.Card.ID(), engine.Say("furnace.log.compensation.none", engine.Str("Card", l.Card.ID()))
		if n > 0 {
			text = "turned " + line.Pay.Times(n).String() + " into " + line.Gain.Times(n).String() + " in compensation for " + l.Card.ID()
			w = engine.Say("furnace.log.compensation.turned", engine.ListArg("Pay", goodsWords(line.Pay.Times(n))),
				engine.ListArg("Gain", goodsWords(line.Gain.Times(n))), engine.Str("Card", l.Card.ID()))
		}
		g.emit(g.seat, "compensation", text, w)
	}
	for i := range g.Players {
		if g.Players[i].Owed > 0 {
			return nil
		}
	}
	g.award()
	g.resolve()
	return nil
}

// award gives the leftmost card to its highest disc. A card nobody bid on,
// or the Agent's, goes back to the box. The log told it already
// (announce).
func (g *game) award() {
	l := g.Market[0]
	g.Market = g.Market[1:]
	w := g.Winner(l)
	switch {
	case w < 0 || l.Discs[w].Seat == AgentSeat:
		g.Removed = append(g.Removed, l.Card)
	case g.Config.Chain:
		p := &g.Players[l.Discs[w].Seat]
		p.New = append(p.New, l.Card)
	default:
		p := &g.Players[l.Discs[w].Seat]
		p.Cards = append(p.Cards, Owned{Card: l.Card})
	}
}

// announce logs where the lot l goes, its winning disc being w (-1 for
// none), before its losers are compensated and award hands it over.
func (g *game) announce(l Lot, w int) {
	switch {
	case !g.log:
	case w < 0:
		g.emit(-1, "discard", "nobody bid on "+l.Card.ID()+": it goes back to the box", engine.Say("furnace.log.nobid", engine.Str("Card", l.Card.ID())))
	case l.Discs[w].Seat == AgentSeat:
		g.emit(-1, "agent", "the Agent won "+l.Card.ID()+" with a "+strconv.Itoa(l.Discs[w].Value)+": it is discarded",
			engine.Say("furnace.log.agent.won", engine.Str("Card", l.Card.ID()), engine.Num("Disc", l.Discs[w].Value)))
	default:
		g.emit(l.Discs[w].Seat, "win", "won "+l.Card.ID()+" with a "+strconv.Itoa(l.Discs[w].Value),
			engine.Say("furnace.log.won", engine.Str("Card", l.Card.ID()), engine.Num("Disc", l.Discs[w].Value)))
	}
}
