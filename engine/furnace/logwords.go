package furnace

import (
	"github.com/smokestack/smokestack/engine"
)

// The log's words for translators (engine.Words): each event says what
// it says in English in its Text, and the same as the ID of a message of
// the catalogue's furnace.log.* with its arguments, which each reader's
// screen words in their own language. Companies keep their ids, which
// no edition names.

// idWords names a card by its id, as an item of a list.
func idWords(c Card) engine.Words { return engine.Say("furnace.log.card", engine.Str("Card", c.ID())) }

// amounts are g's amounts, each its own plural message.
func amounts(g Goods) []engine.Words {
	var items []engine.Words
	add := func(n int, id string) {
		if n != 0 {
			items = append(items, engine.Say(id, engine.Num("N", n)))
		}
	}
	add(g.Coal, "furnace.log.n.coal")
	add(g.Iron, "furnace.log.n.iron")
	add(g.Oil, "furnace.log.n.oil")
	add(g.Tokens, "furnace.log.n.tokens")
	add(g.Money, "furnace.log.n.money")
	return items
}

// goodsWords words g as the log does: "2 coal, 1 iron and 4 money", or
// nothing.
func goodsWords(g Goods) engine.Words {
	items := amounts(g)
	if len(items) == 0 {
		return engine.Say("furnace.log.nothing")
	}
	return engine.Say("log.items", engine.ListArg("Items", items...))
}

// sumWords words g as a card's line does: "1 coal + 1 oil".
func sumWords(g Goods) engine.Words {
	items := amounts(g)
	if len(items) == 0 {
		return engine.Say("furnace.log.nothing")
	}
	w := items[len(items)-1]
	for i := len(items) - 2; i >= 0; i-- {
		w = engine.Say("furnace.log.plus", engine.ListArg("A", items[i]), engine.ListArg("B", w))
	}
	return w
}

// lineWords is lineText's words: each line of o resolved with counts t.
func lineWords(o Owned, t Times) []engine.Words {
	var lines []engine.Words
	k := 0
	for _, l := range o.Card.lines(o.Upgraded) {
		switch {
		case l.Upgrade:
			continue
		case !l.Processing():
			lines = append(lines, engine.Say("furnace.log.line.gain", engine.ListArg("Gain", goodsWords(l.Gain))))
		case t[k] == 0:
			lines = append(lines, engine.Say("furnace.log.line.skipped", engine.ListArg("Pay", sumWords(l.Pay)), engine.ListArg("Gain", sumWords(l.Gain))))
			k++
		default:
			lines = append(lines, engine.Say("furnace.log.line.into",
				engine.ListArg("Pay", goodsWords(l.Pay.Times(t[k]))), engine.ListArg("Gain", goodsWords(l.Gain.Times(t[k])))))
			k++
		}
	}
	return lines
}

// discArg words the disc a compensation counts, as discWords does.
func (s *State) discArg(d Disc) engine.Arg {
	id := "furnace.log.disc"
	if s.Players[d.Seat].Capitalist == Henry {
		id = "furnace.log.disc.henry"
	}
	return engine.ListArg("Disc", engine.Say(id, engine.Num("Value", d.Value)))
}
