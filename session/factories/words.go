package factories

import (
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// Cards and game terms are worded by their English keys, as each
// language's edition prints them (factories.card.KEY, factories.term.KEY
// in the catalogue); a name the catalogue lacks shows as it is.

// cardName is a card's printed name in the theme's language.
func cardName(t kit.Theme, name string) string { return word(t, "factories.card.", name) }

// term is a game term ("metal", "gear", "production") in the theme's
// language.
func term(t kit.Theme, key string) string { return word(t, "factories.term.", key) }

func word(t kit.Theme, prefix, key string) string {
	// T caches a message without arguments; a missing one words as
	// its ID.
	id := prefix + key
	if s := t.L.T(id); s != id {
		return s
	}
	return key
}

// costText words a build cost: "2 metal 1 energy", "free".
func costText(t kit.Theme, metal, energy int) string {
	switch {
	case metal > 0 && energy > 0:
		return t.L.T("factories.cost.both", "Metal", metal, "Energy", energy)
	case metal > 0:
		return t.L.T("factories.cost.metal", "Metal", metal)
	case energy > 0:
		return t.L.T("factories.cost.energy", "Energy", energy)
	}
	return t.L.T("factories.cost.free")
}

// cardNames names cards in the theme's language.
func cardNames(t kit.Theme, cards []factories.Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = cardName(t, c.Name())
	}
	return out
}
