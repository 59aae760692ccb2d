package furnace

import "github.com/smokestack/smokestack/engine"

// refuse is a move refused: its English text, and the words that say it in
// the player's language (id is a furnace.refuse.* message; cards and
// terms are named by their keys).
func refuse(text, id string, args ...engine.Arg) error {
	return engine.Refuse(text, engine.Say(id, args...))
}

// cardArg names a card in a refusal's words, even one that does not
// exist: no card at all is the term "nocard".
func cardArg(name string, c Card) engine.Arg {
	if c == NoCard {
		return engine.TermArg(name, "nocard")
	}
	return engine.CardArg(name, c.ID())
}

// goodsArgs are an amount's goods as numbers, for a refusal that says
// what the player has: "coal 1, upgrade tokens 0".
func goodsArgs(g Goods) []engine.Arg {
	return []engine.Arg{engine.Num("Coal", g.Coal), engine.Num("Iron", g.Iron), engine.Num("Oil", g.Oil),
		engine.Num("Tokens", g.Tokens), engine.Num("Money", g.Money)}
}
