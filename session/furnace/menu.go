package furnace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// Menu implements kit.Board: the legal moves grouped by what they act
// on. In the auction a group is a market card with every disc that may go
// on it; in the resolution, the compensation of the card being resolved;
// in production, each card to resolve, the upgrades while the start card's
// line is open (first, as resolving any other card closes it), Évariste's
// repeat, taking a move back, and Done last, where a careless enter
// cannot reach it while anything else can be played.
func (b *board) Menu(kit.Seats) []kit.MoveGroup {
	groups := kit.MenuOf(b.v.Legal, b.groupOf, b.item)
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
func (b *board) groupOf(mv furnace.Move) (kit.MoveGroup, int) {
	v := b.v
	ref := func(c furnace.Card, where string) *kit.CardRef { r := cardRef(c, where); return &r }
	group := func(key, title string, card *kit.CardRef) kit.MoveGroup {
		return kit.MoveGroup{Key: key, Title: title, Card: card}
	}
	switch mv.Kind {
	case furnace.Bid:
		i := slices.IndexFunc(v.Market, func(l furnace.Lot) bool { return l.Card == mv.Card })
		return group("bid:"+mv.Card.ID(), fmt.Sprintf("card %d: %s", i+1, mv.Card), ref(mv.Card, fmt.Sprintf("market card %d", i+1))), rankBid
	case furnace.Compensate:
		if len(v.Market) == 0 {
			return group("compensate", "Compensation", nil), rankCompensate
		}
		c := v.Market[0].Card
		return group("compensate", "Compensation for "+c.ID(), ref(c, "being resolved")), rankCompensate
	case furnace.Place:
		return group("place:"+mv.Card.ID(), "Place "+mv.Card.ID()+" in your chain", ref(mv.Card, "won this round")), rankPlace
	case furnace.Upgrade:
		return group("upgrade", "Upgrade now", nil), rankUpgrade
	case furnace.Produce:
		if mv.Again {
			return group("again:"+mv.Card.ID(), "Évariste: "+mv.Card.ID()+" again for 2 coal", ref(mv.Card, "your cards")), rankAgain
		}
		return group("produce:"+mv.Card.ID(), "Resolve "+mv.Card.ID(), ref(mv.Card, "your cards")), rankProduce
	case furnace.Done:
		return group("done", "Done with production", nil), rankDone
	case furnace.Undo:
		return group("undo", "Take back (u)", nil), rankUndo
	}
	return group(string(mv.Kind), string(mv.Kind), nil), rankDone
}

// label words a move for the menu, and for the status line once played.
// Within a group the labels differ early, where a narrow menu still shows
// them: a produce move names its card and then what each line does.
// item words a move for the menu; Done and upgrades, which end the seat's
// production or spend coal and tokens for good, and taking a move back
// take a second enter.
func (b *board) item(mv furnace.Move) kit.MenuMove {
	return kit.MenuMove{Label: b.label(mv), Confirm: mv.Kind == furnace.Done || mv.Kind == furnace.Upgrade || mv.Kind == furnace.Undo}
}

func (b *board) label(mv furnace.Move) string {
	v := b.v
	me := v.You()
	if me == nil {
		return mv.Describe(*v)
	}
	switch mv.Kind {
	case furnace.Bid:
		if mv.Extra != furnace.NoCard {
			return fmt.Sprintf("Place your %d on %s, neutral 2 on %s", mv.Disc, mv.Card, mv.Extra)
		}
	case furnace.Compensate:
		if len(v.Market) == 0 || mv.Times[0] == 0 {
			return "Take no compensation"
		}
		line := v.Market[0].Card.Company().Compensation
		return fmt.Sprintf("Turn %s into %s", long.goods(line.Pay.Times(mv.Times[0])), long.goods(line.Gain.Times(mv.Times[0])))
	case furnace.Produce:
		j := slices.IndexFunc(me.Cards, func(o furnace.Owned) bool { return o.Card == mv.Card })
		if j < 0 {
			break
		}
		text := mv.Card.ID() + ": " + produced(me.Cards[j], mv.Times)
		if mv.Again {
			text = mv.Card.ID() + " again for 2 coal: " + produced(me.Cards[j], mv.Times)
		}
		return text
	case furnace.Place:
		text := fmt.Sprintf("Put %s at position %d of your chain", mv.Card, mv.At+1)
		var near []string
		if mv.At > 0 && mv.At-1 < len(me.Cards) {
			near = append(near, "after "+me.Cards[mv.At-1].Card.ID())
		}
		if mv.At < len(me.Cards) {
			near = append(near, "before "+me.Cards[mv.At].Card.ID())
		}
		if len(near) > 0 {
			text += " (" + strings.Join(near, ", ") + ")"
		}
		return text
	case furnace.Done:
		if slices.ContainsFunc(me.Cards, func(o furnace.Owned) bool { return !o.Used }) {
			return "Done with production: the cards not resolved give their extractions only"
		}
	}
	return mv.Describe(*v)
}

// produced words what resolving o with the counts t does, line by line:
// "+1 iron; 1 coal + 1 oil into 6 money", "skip 2 coal → 1 oil".
func produced(o furnace.Owned, t furnace.Times) string {
	var parts []string
	k := 0
	for _, l := range o.Card.Lines(o.Upgraded) {
		switch {
		case l.Upgrade:
		case !l.Processing():
			parts = append(parts, long.line(l))
		case t[k] == 0:
			parts = append(parts, "skip "+long.line(furnace.Line{Pay: l.Pay, Gain: l.Gain}))
			k++
		default:
			parts = append(parts, long.goods(l.Pay.Times(t[k]))+" into "+long.goods(l.Gain.Times(t[k])))
			k++
		}
	}
	return strings.Join(parts, "; ")
}

// cardRef points at a card: companies and start cards by id.
func cardRef(c furnace.Card, where string) kit.CardRef {
	return kit.CardRef{Key: "card:" + c.ID(), Name: c.ID(), Where: where}
}
