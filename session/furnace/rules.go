package furnace

import (
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// rules are UI's rules pages: Furnace for someone who has never played
// it, a screen at a time, in the board's own words (disc, market,
// compensation, production, upgrade). The last page names the cards whose
// data is uncertain, from the card data itself.
func rules(p *lang.Printer) []kit.RulesPage {
	return append(rulesPages, kit.RulesPage{Title: "About the cards", Text: aboutCards()})
}

var rulesPages = []kit.RulesPage{
	{Title: "The goal", Text: `You are a 19th-century industrialist. Buy companies at auction, run them to turn coal, iron and oil into money, and finish with the most money.

A game is 4 rounds (3 in the short game). Each round has three parts:
• the auction: everyone places capital discs on the cards of the market;
• the resolution: each card goes to its highest disc, and every other disc on it gets compensation;
• production: everyone runs their own cards, all at the same time.

Everything on the table is public; only the order of the deck is hidden.`},
	{Title: "The auction", Text: `The market has 4 more cards than there are players. Each player has four capital discs, 1, 2, 3 and 4. In turn, starting with the first player, you place one disc on a market card.

Two rules: a card never holds two discs of the same value, and never two of your own discs.

When none of your discs fits anywhere you place no more this auction; the turn passes you by. The auction ends when nobody can place.

The menu groups the placements by card: ←/→ picks the card, ↑/↓ the disc. On the board each card lists its discs with the one winning it first ("alice 3 > you 1").`},
	{Title: "Resolution and compensation", Text: `The cards are resolved left to right. The highest disc wins the card, which joins its owner's companies. A card with no disc goes back to the box.

Every other disc on the card gets the card's compensation, multiplied by the disc's value:
• "+2 coal" on a 3 gives 6 coal, at once;
• "2 coal → 1 oil" on a 3 lets you do it 0 to 3 times, as you choose. The menu offers every count you can pay; the game waits while players choose.

Losing is not wasted: a well-placed small disc can pay as much as a card.`},
	{Title: "Production and upgrades", Text: `Everyone runs their cards at once; say Done when you have finished. Each card is resolved once, whole, in any order, and you cannot go back to a card.

A card's lines are done top to bottom: "+1 iron" is always received; "1 coal + 1 iron → 4 money ×3" may be done 0 to 3 times, paid from what you hold, lines above included.

Your start card gives 1 upgrade token, has its own conversion, and its last line upgrades any number of your companies for 1 coal + 1 upgrade token each. Upgrading is open right after you resolve the start card, and closes when you resolve another card. An upgraded company (⇧) keeps its basic line and adds a second one; if you upgrade it before resolving it, both lines work this round.

Done gives the extractions (+) of the cards you have not resolved, and no processing. Until then, u takes back your last move, and the one before: a card resolved, an upgrade, a chain place.`},
	{Title: "The end and tie-breaks", Text: `After the production of the last round the game ends. The most money wins.

Ties go to the player with the most cards (the start card counts), then the most coal, iron, oil and upgrade tokens together; players still tied share the win.

Coal, iron and oil are worth nothing at the end: turn them into money while you can.`},
	{Title: "Capitalists", Text: `With the capitalists option each player also gets a capitalist with a power:
• Évariste: once per production you may pay 2 coal to use one of your cards again.
• Henry: when you receive compensation, each of your discs counts 1 higher.
• Monica: you may place discs ignoring both placement rules, but you lose ties for the highest disc.
• Arthur: you have an extra disc of value 2, the neutral disc ("2n" on the board). The arthur option says when it is placed: on a turn of its own (alone), or together with another of your discs, on another card (paired).
• Timur: when you upgrade with no upgrade tokens left, you may pay 1 iron instead of the token; the coal is still paid.

i on a player's capitalist shows the power again.`},
	{Title: "Two players: the Agent", Text: `With two players a third bidder joins: the Agent. It has discs 1 to 4 and places one after every two placements by the players.

It rolls a die for a card position (1 to 6, from the left) and puts its smallest disc that fits there under the usual rules; if none fits it tries the next card to the right, wrapping round. With no place anywhere it stops for the auction.

A card the Agent wins is discarded. The Agent gets no compensation and does not score. The log says what it rolled and where it placed.

The production-chain variant (option chain): your cards form a row and produce strictly left to right; each card you win is placed into the row first, wherever you choose.`},
}

// aboutCards says which cards' data is uncertain, as cards.json marks
// them.
func aboutCards() string {
	var doubtful, standIn []string
	for _, c := range furnace.Companies() {
		switch c.Confidence {
		case "C":
			doubtful = append(doubtful, "• "+c.ID+": "+c.Note+".")
		case "stand-in":
			standIn = append(standIn, "• "+c.ID+": "+c.Note+".")
		}
	}
	text := fmt.Sprintf(`The printed game has 36 companies; 5 of them are not public, so this deck has %d: the 31 known ones and the publisher's example card. Companies have no printed names here: they are called by group and number (oil-03, metal-12, mine-06).

Most card data comes from one detailed public source (B); a few cards are confirmed by two (A).`, furnace.NumCompanies())
	if len(doubtful) > 0 {
		text += "\n\nDoubtful (C):\n" + strings.Join(doubtful, "\n")
	}
	if len(standIn) > 0 {
		text += "\n\nStand-in values, invented because the real ones are not public:\n" + strings.Join(standIn, "\n")
	}
	return text + "\n\ni on any card says which it is and why."
}
