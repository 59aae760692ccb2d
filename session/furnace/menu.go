package furnace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Menu implements kit.Board: the legal moves grouped by what they act
// on. In the auction a group is a market card with every disc that may go
// on it; in the resolution, the compensation of the card being resolved;
// in production, each card to resolve, the upgrades while the start card's
// line is open (first, as resolving any other card closes it), Évariste's
// repeat, taking a move back, and Done last, where a careless enter
// cannot reach it while anything else can be played.
func (b *board) Menu(s kit.Seats) []kit.MoveGroup {
	best := b.bestMoney()
	groups := kit.MenuOf(b.v.Legal,
		func(mv furnace.Move) (kit.MoveGroup, int) { return b.groupOf(s.L, mv) },
		func(mv furnace.Move) kit.MenuMove {
			it := b.item(s.L, mv)
			it.Loses = b.loses(s.L, mv, best)
			return it
		})
	for i, g := range groups {
		// The engine lists counts from 0 up; the menu opens on the most a
		// card or a compensation can do, and keeps "none" last.
		if k, _, _ := strings.Cut(g.Key, ":"); k == "compensate" || k == "produce" || k == "again" {
			slices.Reverse(groups[i].Moves)
		}
	}
	return groups
}

// The menu's group ranks, first to last.
const (
	rankBid = iota
	rankCompensate
	rankPlace
	rankUpgrade
	rankProduce
	rankAgain
	rankUndo
	rankDone
)

// groupOf says which group a move belongs to, with its title and the
// card it is about, and the group's rank.
func (b *board) groupOf(p *lang.Printer, mv furnace.Move) (kit.MoveGroup, int) {
	v := b.v
	ref := func(c furnace.Card, where string) *kit.CardRef { r := cardRef(c, where); return &r }
	group := func(key, title string, card *kit.CardRef) kit.MoveGroup {
		return kit.MoveGroup{Key: key, Title: title, Card: card}
	}
	switch mv.Kind {
	case furnace.Bid:
		i := slices.IndexFunc(v.Market, func(l furnace.Lot) bool { return l.Card == mv.Card })
		return group("bid:"+mv.Card.ID(), p.T("furnace.menu.bid", "Pos", i+1, "Card", mv.Card.ID()),
			ref(mv.Card, p.T("furnace.where.market", "Pos", i+1))), rankBid
	case furnace.Compensate:
		if len(v.Market) == 0 {
			return group("compensate", p.T("furnace.menu.compensation"), nil), rankCompensate
		}
		c := v.Market[0].Card
		return group("compensate", p.T("furnace.menu.compensationFor", "Card", c.ID()), ref(c, p.T("furnace.where.resolving"))), rankCompensate
	case furnace.Place:
		return group("place:"+mv.Card.ID(), p.T("furnace.menu.place", "Card", mv.Card.ID()), ref(mv.Card, p.T("furnace.where.won"))), rankPlace
	case furnace.Upgrade:
		return group("upgrade", p.T("furnace.menu.upgrade"), nil), rankUpgrade
	case furnace.Produce:
		if mv.Again {
			return group("again:"+mv.Card.ID(), p.T("furnace.menu.again", "Name", capitalistName(p, furnace.Evariste), "Card", mv.Card.ID()),
				ref(mv.Card, p.T("furnace.where.yours"))), rankAgain
		}
		return group("produce:"+mv.Card.ID(), p.T("furnace.menu.produce", "Card", mv.Card.ID()), ref(mv.Card, p.T("furnace.where.yours"))), rankProduce
	case furnace.Done:
		return group("done", p.T("furnace.menu.done"), nil), rankDone
	case furnace.Undo:
		return group("undo", p.T("furnace.menu.undo"), nil), rankUndo
	}
	return group(string(mv.Kind), string(mv.Kind), nil), rankDone
}

// item words a move for the menu; Done and upgrades, which end the seat's
// production or spend coal and tokens for good, take a second enter.
// Taking a move back loses nothing: it plays at once, as u does.
func (b *board) item(p *lang.Printer, mv furnace.Move) kit.MenuMove {
	return kit.MenuMove{Label: b.label(p, mv), Confirm: mv.Kind == furnace.Done || mv.Kind == furnace.Upgrade}
}

// produceKey names a produce move's card and whether it is Évariste's
// repeat: the moves that are choices for one resolution.
func produceKey(mv furnace.Move) string { return fmt.Sprint(mv.Card.ID(), mv.Again) }

// bestMoney is the most money each resolution on offer can make.
func (b *board) bestMoney() map[string]int {
	best := map[string]int{}
	for _, mv := range b.v.Legal {
		if mv.Kind == furnace.Produce {
			k := produceKey(mv)
			if m, ok := best[k]; !ok || b.produceGains(mv).Money > m {
				best[k] = b.produceGains(mv).Money
			}
		}
	}
	return best
}

// produceGains is what resolving a card as mv says makes, before what
// it pays.
func (b *board) produceGains(mv furnace.Move) furnace.Goods {
	var gain furnace.Goods
	o := b.owned(mv.Card)
	k := 0
	for _, l := range o.Card.Lines(o.Upgraded) {
		switch {
		case l.Upgrade:
		case !l.Processing():
			gain = gain.Plus(l.Gain)
		default:
			gain = gain.Plus(l.Gain.Times(mv.Times[k]))
			k++
		}
	}
	return gain
}

// owned is the seat's card c as it owns it (upgraded or not).
func (b *board) owned(c furnace.Card) furnace.Owned {
	if me := b.v.You(); me != nil {
		if j := slices.IndexFunc(me.Cards, func(o furnace.Owned) bool { return o.Card == c }); j >= 0 {
			return me.Cards[j]
		}
	}
	return furnace.Owned{Card: c}
}

// loses says what a produce move throws away, for the confirm line:
// money the card could have made ("$3 less than this card can make"),
// or, in the last round, goods turned into others that score nothing.
func (b *board) loses(p *lang.Printer, mv furnace.Move, best map[string]int) string {
	if mv.Kind != furnace.Produce {
		return ""
	}
	if less := best[produceKey(mv)] - b.produceGains(mv).Money; less > 0 {
		return p.T("furnace.loses.money", "Money", less)
	}
	if b.v.Round < b.v.Config.Rounds {
		return ""
	}
	o := b.owned(mv.Card)
	k := 0
	for _, l := range o.Card.Lines(o.Upgraded) {
		if l.Upgrade || !l.Processing() {
			continue
		}
		if mv.Times[k] > 0 && l.Gain.Money == 0 {
			return p.T("furnace.loses.lastRound")
		}
		k++
	}
	return ""
}

// label words a move for the menu, and for the status line once played,
// in the reader's language. Within a group the labels differ early, where
// a narrow menu still shows them: a produce move names its card and then
// what each line does.
func (b *board) label(p *lang.Printer, mv furnace.Move) string {
	v, long := b.v, long.in(p)
	me := v.You()
	switch mv.Kind {
	case furnace.Bid:
		switch {
		case mv.Neutral:
			return p.T("furnace.move.neutral", "Card", mv.Card.ID())
		case mv.Extra != furnace.NoCard:
			return p.T("furnace.move.paired", "Disc", mv.Disc, "Card", mv.Card.ID(), "Extra", mv.Extra.ID())
		}
		return p.T("furnace.move.bid", "Disc", mv.Disc, "Card", mv.Card.ID())
	case furnace.Compensate:
		if len(v.Market) == 0 {
			return p.N("furnace.move.compensateTimes", mv.Times[0])
		}
		if mv.Times[0] == 0 {
			return p.T("furnace.move.noCompensation")
		}
		line := v.Market[0].Card.Company().Compensation
		return p.T("furnace.move.turn", "Pay", long.goods(line.Pay.Times(mv.Times[0])), "Gain", long.goods(line.Gain.Times(mv.Times[0])))
	case furnace.Produce:
		o := furnace.Owned{Card: mv.Card}
		if me != nil {
			if j := slices.IndexFunc(me.Cards, func(o furnace.Owned) bool { return o.Card == mv.Card }); j >= 0 {
				o = me.Cards[j]
			}
		}
		if mv.Again {
			return p.T("furnace.move.again", "Card", mv.Card.ID(), "Lines", produced(long, o, mv.Times))
		}
		return mv.Card.ID() + ": " + produced(long, o, mv.Times)
	case furnace.Place:
		return b.placeLabel(p, mv)
	case furnace.Upgrade:
		if cost, ok := upgradeCost(me); ok {
			return p.T("furnace.move.upgradeFor", "Card", mv.Card.ID(), "Cost", long.goods(cost))
		}
		return p.T("furnace.move.upgrade", "Card", mv.Card.ID())
	case furnace.Done:
		if me != nil && slices.ContainsFunc(me.Cards, func(o furnace.Owned) bool { return !o.Used }) {
			return p.T("furnace.move.doneUnresolved")
		}
		return p.T("furnace.menu.done")
	case furnace.Undo:
		return p.T("furnace.move.undo")
	}
	return string(mv.Kind)
}

// placeLabel words putting a won card into the chain, with its
// neighbours there.
func (b *board) placeLabel(p *lang.Printer, mv furnace.Move) string {
	text := p.T("furnace.move.place", "Card", mv.Card.ID(), "Pos", mv.At+1)
	me := b.v.You()
	if me == nil {
		return text
	}
	var near []string
	if mv.At > 0 && mv.At-1 < len(me.Cards) {
		near = append(near, p.T("furnace.move.after", "Card", me.Cards[mv.At-1].Card.ID()))
	}
	if mv.At < len(me.Cards) {
		near = append(near, p.T("furnace.move.before", "Card", me.Cards[mv.At].Card.ID()))
	}
	if len(near) > 0 {
		text += " (" + strings.Join(near, ", ") + ")"
	}
	return text
}

// upgradeCost is what upgrading costs the seat now, as the engine counts
// it: 1 coal and 1 upgrade token, or for Timur with no tokens left 1 coal
// and 1 iron.
func upgradeCost(me *furnace.Player) (furnace.Goods, bool) {
	switch {
	case me == nil:
		return furnace.Goods{}, false
	case me.Goods.Tokens > 0:
		return furnace.Goods{Coal: 1, Tokens: 1}, true
	case me.Capitalist == furnace.Timur:
		return furnace.Goods{Coal: 1, Iron: 1}, true
	}
	return furnace.Goods{}, false
}

// produced words what resolving o with the counts t does, line by line:
// "+1 iron; 1 coal + 1 oil into 6 money", "skip 2 coal → 1 oil".
func produced(n notation, o furnace.Owned, t furnace.Times) string {
	var parts []string
	k := 0
	for _, l := range o.Card.Lines(o.Upgraded) {
		switch {
		case l.Upgrade:
		case !l.Processing():
			parts = append(parts, n.line(l))
		case t[k] == 0:
			parts = append(parts, n.p.T("furnace.move.skip", "Line", n.line(furnace.Line{Pay: l.Pay, Gain: l.Gain})))
			k++
		default:
			parts = append(parts, n.p.T("furnace.move.into", "Pay", n.goods(l.Pay.Times(t[k])), "Gain", n.goods(l.Gain.Times(t[k]))))
			k++
		}
	}
	return strings.Join(parts, "; ")
}

// cardRef points at a card: companies and start cards by id.
func cardRef(c furnace.Card, where string) kit.CardRef {
	return kit.CardRef{Key: "card:" + c.ID(), Name: c.ID(), Where: where}
}
