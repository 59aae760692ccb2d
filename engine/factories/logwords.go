package factories

import (
	"github.com/smokestack/smokestack/engine"
)

// The log's words for translators (engine.Words): each event says what
// it says in English in its Text, and the same as the ID of a message of
// the catalogue's factories.log.* with its arguments, which each reader's
// screen words in their own language. Cards go by their English names.
// A game that words no events (a bot's search) must pay nothing for
// them: Words with arguments are made only when g.wording(), or in a
// func called only then.

// cardWords names a card as an item of a list or a nested text.
func cardWords(name string) engine.Words {
	return engine.Say("factories.log.card", engine.CardArg("Card", name))
}

// Amounts of the game's things, each its own plural message.
const (
	nMetal      = "factories.log.n.metal"
	nEnergy     = "factories.log.n.energy"
	nGoods      = "factories.log.n.goods"
	nBlueprints = "factories.log.n.blueprints"
)

// amount is n of the thing message id counts: "2 metal".
func amount(id string, n int) engine.Words { return engine.Say(id, engine.Num("N", n)) }

// gains is a list argument of amounts, in the order given, leaving out
// none: "2 goods and 1 metal".
func gains(name string, items ...engine.Words) engine.Arg { return engine.ListArg(name, items...) }

// The reasons to draw that are not a card's name.
const (
	giftOfArchitect  = "gift from the Architect"
	whyResearch      = "research"
	whyResearchBonus = "research, +1 for matching a die already there"
)

// whyWords words a reason of drawTo.
func whyWords(why string) engine.Words {
	switch why {
	case giftOfArchitect:
		return engine.Say("factories.log.why.gift", engine.CardArg("Card", Architect))
	case whyResearch:
		return engine.Say("factories.log.why.research")
	case whyResearchBonus:
		return engine.Say("factories.log.why.research.bonus")
	}
	return cardWords(why)
}

// emitCard records an event whose words name one card, as Card: its
// Words are made only when the game words events.
func (g *game) emitCard(seat int, kind, id, card string, parts ...string) {
	if g.wording() {
		g.emit(seat, kind, engine.Say(id, engine.CardArg("Card", card)), parts...)
	}
}
