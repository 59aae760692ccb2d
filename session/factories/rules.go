package factories

import "github.com/smokestack/smokestack/session/kit"

// rules are UI's rules pages: Fantastic Factories for someone who has
// never played it, a screen at a time. The words match the board's: a
// player who reads "research" here finds "research" on their
// Headquarters. Each page is a pair of message IDs the session words in
// its reader's language (kit.Pages); every language's pages are checked
// against that language's rulebook for every number and die face.
func rules() []kit.RulesPage { return rulesPages }

var rulesPages = []kit.RulesPage{
	{Title: "factories.rules.goal.title", Text: "factories.rules.goal.text"},
	{Title: "factories.rules.market.title", Text: "factories.rules.market.text"},
	{Title: "factories.rules.work.title", Text: "factories.rules.work.text"},
	{Title: "factories.rules.building.title", Text: "factories.rules.building.text"},
	{Title: "factories.rules.solo.title", Text: "factories.rules.solo.text"},
}
