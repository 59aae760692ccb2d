package bot

import (
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// guess rebuilds a whole State from what the view shows, so the bot can try
// moves with the engine's own rules (State.Play). Everything in Furnace is
// on the table but the deck's order: the deck is dealt from the companies
// the view does not show, shuffled with the bot's own generator, so
// nothing the bot tries can tell it the real order.
func guess(v *furnace.View, rng *engine.RNG) furnace.State {
	cfg := v.Config
	cfg.Undo = false // the bot's own trials are never taken back
	s := furnace.State{
		Format: furnace.Format, Config: cfg, RNG: engine.NewRNG(rng.Uint64()),
		Round: v.Round, Phase: v.Phase, First: v.First, Turn: v.Turn, Placed: v.Placed,
		Market: v.Market, Removed: v.Removed, Players: v.Players, Agent: v.Agent,
	}
	seen := make([]bool, furnace.NumCompanies()+1)
	mark := func(c furnace.Card) {
		if int(c) < len(seen) {
			seen[c] = true
		}
	}
	for _, l := range v.Market {
		mark(l.Card)
	}
	for _, c := range v.Removed {
		mark(c)
	}
	for _, p := range v.Players {
		for _, o := range p.Cards {
			mark(o.Card)
		}
		for _, c := range p.New {
			mark(c)
		}
	}
	for c := 1; c < len(seen); c++ {
		if !seen[c] {
			s.Deck = append(s.Deck, furnace.Card(c))
		}
	}
	rng.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	// The view's slices are the bot's, but the guess is played on: give
	// it its own copy.
	return s.Clone()
}
