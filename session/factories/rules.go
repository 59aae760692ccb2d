package factories

import (
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// rules are UI's rules pages in p's language: Fantastic Factories for
// someone who has never played it, a screen at a time. The words match
// the board's: a player who reads "research" here finds "research" on
// their Headquarters. The pages are the catalogue's (rulesPages names
// their messages), each language's checked against its rulebook for
// every number and die face.
func rules(p *lang.Printer) []kit.RulesPage {
	pages := make([]kit.RulesPage, len(rulesPages))
	for i, page := range rulesPages {
		pages[i] = kit.RulesPage{Title: p.T(page.Title), Text: p.T(page.Text)}
	}
	return pages
}

// rulesPages are the pages' message IDs.
var rulesPages = []kit.RulesPage{
	{Title: "factories.rules.goal.title", Text: "factories.rules.goal.text"},
	{Title: "factories.rules.market.title", Text: "factories.rules.market.text"},
	{Title: "factories.rules.work.title", Text: "factories.rules.work.text"},
	{Title: "factories.rules.building.title", Text: "factories.rules.building.text"},
	{Title: "factories.rules.solo.title", Text: "factories.rules.solo.text"},
}
