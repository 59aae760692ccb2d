package furnace

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// startProduction begins the production phase: every seat resolves its
// own cards, all at once. (endRound left every card unused.)
func (g *game) startProduction() {
	g.Phase = ProductionPhase
	g.emit(-1, "production", "production begins", engine.Say("furnace.log.production"))
}

// place puts a card won this round into the seat's chain at position at
// (0 is the far left).
func (g *game) place(c Card, at int) error {
	p := g.me()
	if !g.Config.Chain {
		return refuse("cards are placed only in the production-chain variant", "furnace.refuse.noChain")
	}
	j := slices.Index(p.New, c)
	switch {
	case c == NoCard:
		return refuse("name the card you won to place in your chain", "furnace.refuse.nameWon")
	case j < 0:
		return refuse(fmt.Sprintf("%s is not a card you won this round", cardName(c)), "furnace.refuse.notWon", cardArg("Card", c))
	case at < 0 || at > len(p.Cards):
		return refuse(fmt.Sprintf("your chain has positions 0 to %d, not %d", len(p.Cards), at), "furnace.refuse.chainRange",
			engine.Num("Last", len(p.Cards)), engine.Num("At", at))
	}
	p.New = slices.Delete(p.New, j, j+1)
	if len(p.New) == 0 {
		p.New = nil
	}
	p.Cards = slices.Insert(p.Cards, at, Owned{Card: c})
	if g.log {
		g.emit(g.seat, "place", "put "+c.ID()+" at position "+strconv.Itoa(at+1)+" of the chain",
			engine.Say("furnace.log.place", engine.Str("Card", c.ID()), engine.Num("At", at+1)))
	}
	return nil
}

// next is the index of the card the seat's chain resolves next (its first
// unused card), or -1 when all are used.
func (p *Player) next() int {
	for j := range p.Cards {
		if !p.Cards[j].Used {
			return j
		}
	}
	return -1
}

// produce resolves one of the seat's cards, top to bottom: extractions in
// full, processing lines the number of times m.Times gives.
func (g *game) produce(m Move) error {
	p := g.me()
	j := p.owned(m.Card)
	switch {
	case m.Card == NoCard:
		return refuse("name the card to resolve", "furnace.refuse.nameProduce")
	case j < 0:
		return refuse(fmt.Sprintf("you do not own %s", cardName(m.Card)), "furnace.refuse.notOwned", cardArg("Card", m.Card))
	}
	o := p.Cards[j]
	goods := p.Goods
	if m.Again {
		switch {
		case p.Capitalist != Evariste:
			return refuse("only Évariste may use a card again", "furnace.refuse.onlyEvariste", engine.CardArg("Name", string(Evariste)))
		case p.Repeated:
			return refuse("you have used a card again this round already", "furnace.refuse.againUsed")
		case !o.Used:
			return refuse(fmt.Sprintf("%s is not resolved yet this round", o.Card), "furnace.refuse.notYetResolved", cardArg("Card", o.Card))
		case goods.Coal < repeatCoal:
			return refuse(fmt.Sprintf("using a card again costs %d coal; you have %d", repeatCoal, goods.Coal), "furnace.refuse.againCost",
				engine.Num("Cost", repeatCoal), engine.Num("Coal", goods.Coal))
		}
		goods.Coal -= repeatCoal
	} else {
		if o.Used {
			return refuse(fmt.Sprintf("%s is resolved already this round", o.Card), "furnace.refuse.resolvedAlready", cardArg("Card", o.Card))
		}
		if next := p.next(); g.Config.Chain && next != j {
			return refuse(fmt.Sprintf("your chain resolves left to right: %s is next", p.Cards[next].Card), "furnace.refuse.chainNext",
				cardArg("Card", p.Cards[next].Card))
		}
	}
	after, err := run(o, goods, m.Times)
	if err != nil {
		return err
	}
	p.Goods = after
	p.Cards[j].Used = true
	p.Open = o.Card
	if m.Again {
		p.Repeated = true
	}
	if g.log {
		g.emit(g.seat, "produce", produced(o, m.Again, m.Times), producedWords(o, m.Again, m.Times))
	}
	return nil
}

// produced words a resolved card for the log, line by line:
// "resolved oil-05: +1 iron; 1 coal and 1 oil into 6 money".
func produced(o Owned, again bool, t Times) string {
	text := "resolved " + o.Card.ID()
	if again {
		text = "paid 2 coal to resolve " + o.Card.ID() + " again"
	}
	return text + lineText(o, t, "skipped")
}

// producedWords is produced's words for translators.
func producedWords(o Owned, again bool, t Times) engine.Words {
	id := "furnace.log.resolved"
	if again {
		id = "furnace.log.again"
	}
	lines := lineWords(o, t)
	if len(lines) == 0 {
		id += ".bare"
	}
	return engine.Say(id, engine.Str("Card", o.Card.ID()), engine.ListArg("Pay", goodsWords(Goods{Coal: 2})), engine.StepsArg("Lines", lines...))
}

// lineText words what resolving o with counts t does, line by line, for
// the log and the menu: ": +1 iron; 1 coal and 1 oil into 6 money". A
// processing done 0 times is "skipped" (skip says how).
func lineText(o Owned, t Times, skip string) string {
	text, sep, k := "", ": ", 0
	for _, l := range o.Card.lines(o.Upgraded) {
		switch {
		case l.Upgrade:
			continue
		case !l.Processing():
			text += sep + "+" + l.Gain.String()
		case t[k] == 0:
			text += sep + skip + " " + Line{Pay: l.Pay, Gain: l.Gain}.String()
			k++
		default:
			text += sep + l.Pay.Times(t[k]).String() + " into " + l.Gain.Times(t[k]).String()
			k++
		}
		sep = "; "
	}
	return text
}

// run resolves card o's lines on goods: extractions are added, and the
// nth processing line is done times[n] times if goods (as the lines above
// left them) can pay. It returns the goods after, or why the counts
// cannot be done.
func run(o Owned, goods Goods, times Times) (Goods, error) {
	lines := o.Card.lines(o.Upgraded)
	n := o.Card.processingLines(o.Upgraded)
	for k := n; k < len(times); k++ {
		if times[k] != 0 {
			return goods, refuse(fmt.Sprintf("%s has %s to process", o.Card, plural(n, "line")), "furnace.refuse.processLines",
				cardArg("Card", o.Card), engine.Num("N", n))
		}
	}
	k := 0
	for _, l := range lines {
		switch {
		case l.Upgrade:
		case !l.Processing():
			goods = goods.Plus(l.Gain)
		default:
			t := times[k]
			k++
			cost := l.Pay.Times(t)
			switch {
			case t < 0:
				return goods, refuse("the number of times cannot be negative", "furnace.refuse.negative")
			case t > l.Times:
				return goods, refuse(fmt.Sprintf("%s is done at most %s", l, plural(l.Times, "time")), "furnace.refuse.atMost",
					cardArg("Card", o.Card), engine.Num("N", l.Times))
			case !goods.Covers(cost):
				return goods, refuse(fmt.Sprintf("%s%s needs %s; you would have %s", l, timesSuffix(t), cost, goods.of(l.Pay)), "furnace.refuse.cannotPay",
					append(goodsArgs(goods), cardArg("Card", o.Card), engine.Num("N", t))...)
			}
			goods = goods.Minus(cost).Plus(l.Gain.Times(t))
		}
	}
	return goods, nil
}

func timesSuffix(n int) string {
	if n == 1 {
		return " once"
	}
	return times(n)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// upgradeCost is what upgrading costs the seat now: 1 coal and 1 upgrade
// token, or for Timur with no tokens left 1 coal and 1 iron. ok is false
// for a seat with neither.
func (p *Player) upgradeCost() (cost Goods, ok bool) {
	switch {
	case p.Goods.Tokens > 0:
		cost = Goods{Coal: 1, Tokens: 1}
	case p.Capitalist == Timur:
		cost = Goods{Coal: 1, Iron: 1}
	default:
		return Goods{Coal: 1, Tokens: 1}, false
	}
	return cost, p.Goods.Covers(cost)
}

// upgrade flips one of the seat's companies, by the start card's last
// line: only while the start card is the card being resolved.
func (g *game) upgrade(c Card) error {
	p := g.me()
	if !p.Open.IsStart() {
		return refuse("companies are upgraded by your start card's last line: resolve the start card first", "furnace.refuse.upgradeClosed")
	}
	j := p.owned(c)
	switch {
	case c == NoCard:
		return refuse("name the company to upgrade", "furnace.refuse.nameUpgrade")
	case j < 0:
		return refuse(fmt.Sprintf("you do not own %s", cardName(c)), "furnace.refuse.notOwned", cardArg("Card", c))
	case c.IsStart():
		return refuse("start cards cannot be upgraded", "furnace.refuse.upgradeStart")
	case p.Cards[j].Upgraded:
		return refuse(fmt.Sprintf("%s is upgraded already", c), "furnace.refuse.upgradedAlready", cardArg("Card", c))
	}
	cost, ok := p.upgradeCost()
	if !ok {
		if p.Capitalist == Timur {
			return refuse(fmt.Sprintf("an upgrade costs 1 coal and 1 upgrade token (or 1 iron once your tokens are gone); you have %s",
				p.Goods.of(Goods{Coal: 1, Iron: 1, Tokens: 1})), "furnace.refuse.upgradeCostTimur", goodsArgs(p.Goods)...)
		}
		return refuse(fmt.Sprintf("an upgrade costs %s; you have %s", cost, p.Goods.of(cost)), "furnace.refuse.upgradeCost", goodsArgs(p.Goods)...)
	}
	p.Goods = p.Goods.Minus(cost)
	p.Cards[j].Upgraded = true
	if g.log {
		text, id := "upgraded "+c.ID()+" for "+cost.String(), "furnace.log.upgrade"
		switch {
		case p.Cards[j].Used && g.Round >= g.Config.Rounds:
			text += " (resolved already, and this is the last round: its new line will not work)"
			id = "furnace.log.upgrade.last"
		case p.Cards[j].Used:
			text += " (its new line works from next round)"
			id = "furnace.log.upgrade.next"
		}
		g.emit(g.seat, "upgrade", text, engine.Say(id, engine.Str("Card", c.ID()), engine.ListArg("Cost", goodsWords(cost))))
	}
	return nil
}

// done ends the seat's production. Cards not resolved yet give their
// extractions, which nobody may refuse, and no processing; when the last
// seat is done the round ends.
func (g *game) done() {
	p := g.me()
	var gained Goods
	for j := range p.Cards {
		o := &p.Cards[j]
		if o.Used {
			continue
		}
		o.Used = true
		for _, l := range o.Card.lines(o.Upgraded) {
			if !l.Processing() && !l.Upgrade {
				gained = gained.Plus(l.Gain)
			}
		}
	}
	p.Goods = p.Goods.Plus(gained)
	p.Done, p.Open = true, NoCard
	if g.log {
		text, w := "finished production", engine.Say("furnace.log.done")
		if !gained.IsZero() {
			text += "; the cards not resolved gave " + gained.String()
			w = engine.Say("furnace.log.done.gave", engine.ListArg("Gain", goodsWords(gained)))
		}
		g.emit(g.seat, "done", text, w)
	}
	for i := range g.Players {
		if !g.Players[i].Done {
			return
		}
	}
	g.endRound()
}

// endRound ends the game after the last round, or passes the first player
// marker to the left and deals the next auction.
func (g *game) endRound() {
	for i := range g.Players {
		p := &g.Players[i]
		p.Done, p.Open, p.Repeated = false, NoCard, false
		for j := range p.Cards {
			p.Cards[j].Used = false
		}
	}
	if g.Round >= g.Config.Rounds {
		g.Phase = GameOver
		if g.log {
			g.emit(-1, "over", "the game is over", engine.Say("furnace.log.over"))
		}
		return
	}
	g.Round++
	g.First = (g.First + 1) % len(g.Players)
	g.startAuction()
}
