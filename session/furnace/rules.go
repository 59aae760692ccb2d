package furnace

import (
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// rules are UI's rules pages in p's language: Furnace for someone who
// has never played it, a screen at a time, in the board's own words (disc,
// market, compensation, production, upgrade). The last page names the
// cards whose data is uncertain, from the card data itself.
func rules(p *lang.Printer) []kit.RulesPage {
	pages := []kit.RulesPage{
		{Title: p.T("furnace.rules.goalTitle"), Text: p.T("furnace.rules.goal")},
		{Title: p.T("furnace.rules.auctionTitle"), Text: p.T("furnace.rules.auction")},
		{Title: p.T("furnace.rules.resolutionTitle"), Text: p.T("furnace.rules.resolution")},
		{Title: p.T("furnace.rules.productionTitle"), Text: p.T("furnace.rules.production")},
		{Title: p.T("furnace.rules.endTitle"), Text: p.T("furnace.rules.end")},
		{Title: p.T("furnace.rules.capitalistsTitle"), Text: p.T("furnace.rules.capitalists")},
		{Title: p.T("furnace.rules.agentTitle"), Text: p.T("furnace.rules.agent")},
	}
	return append(pages, kit.RulesPage{Title: p.T("furnace.rules.aboutTitle"), Text: aboutCards(p)})
}

// aboutCards says which cards' data is uncertain, as cards.json marks
// them.
func aboutCards(p *lang.Printer) string {
	var doubtful, standIn []string
	for _, c := range furnace.Companies() {
		switch c.Confidence {
		case "C":
			doubtful = append(doubtful, "• "+c.ID+": "+cardNote(p, c.ID, c.Note)+".")
		case "stand-in":
			standIn = append(standIn, "• "+c.ID+": "+cardNote(p, c.ID, c.Note)+".")
		}
	}
	text := p.T("furnace.rules.about", "Deck", furnace.NumCompanies())
	if len(doubtful) > 0 {
		text += "\n\n" + p.T("furnace.rules.aboutDoubtful") + "\n" + strings.Join(doubtful, "\n")
	}
	if len(standIn) > 0 {
		text += "\n\n" + p.T("furnace.rules.aboutStandIn") + "\n" + strings.Join(standIn, "\n")
	}
	return text + "\n\n" + p.T("furnace.rules.aboutI")
}
