package bot

import (
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// guess rebuilds a full State from what v shows, so a bot can try its own
// moves with factories.Apply instead of re-implementing every recipe.
// Everything hidden is made up from cards the seat has not seen: other
// hands and the deck are dealt from them in an order drawn from rng, so a
// draw in the guessed world tells the bot nothing it did not know. The
// once-a-round triggers (Laboratory, Scrap Yard, Solar Array) are not in the
// view and are guessed unused.
func guess(v factories.View, rng *engine.RNG) factories.State {
	s := factories.State{
		Format:     factories.Format,
		Config:     factories.Config{Players: v.Seats, Difficulty: v.Difficulty},
		RNG:        engine.NewRNG(rng.Uint64()),
		Round:      v.Round,
		Phase:      v.Phase,
		First:      v.First,
		Turn:       v.Turn,
		Refreshed:  v.Refreshed,
		FinalRound: v.FinalRound,
		EndCause:   v.EndCause,
		Market:     v.Market,
		Discard:    []factories.Card{},
	}
	if v.Machine != nil {
		m := *v.Machine
		m.Compound = slices.Clone(m.Compound)
		s.Machine = &m
	}
	s.Deck = unseen(v)
	s.RNG.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	s.ContractorDiscard = []factories.Contractor{}
	s.ContractorDeck = unhired(v)
	s.RNG.Shuffle(len(s.ContractorDeck), func(i, j int) {
		s.ContractorDeck[i], s.ContractorDeck[j] = s.ContractorDeck[j], s.ContractorDeck[i]
	})
	for _, pv := range v.Players {
		p := guessPlayer(pv)
		if pv.Seat == v.Seat {
			p.Hand = slices.Clone(v.Hand)
		} else {
			n := min(pv.HandSize, len(s.Deck))
			p.Hand, s.Deck = slices.Clone(s.Deck[:n]), s.Deck[n:]
		}
		s.Players = append(s.Players, p)
	}
	return s
}

// unseen lists the cards v shows nowhere, in card order: the guessed
// deck, before it is shuffled and other hands are dealt from it.
func unseen(v factories.View) []factories.Card {
	seen := make([]bool, factories.NumCards())
	mark := func(c factories.Card) {
		if c >= 0 && int(c) < len(seen) {
			seen[c] = true
		}
	}
	for _, c := range v.Hand {
		mark(c)
	}
	for _, c := range v.Market.Blueprints {
		mark(c)
	}
	for _, p := range v.Players {
		for _, b := range p.Compound {
			mark(b.Card)
		}
	}
	if v.Machine != nil {
		for _, c := range v.Machine.Compound {
			mark(c)
		}
	}
	var deck []factories.Card
	for c, ok := range seen {
		if !ok {
			deck = append(deck, factories.Card(c))
		}
	}
	return deck
}

// unhired lists the contractors not in v's market, in contractor order:
// the guessed contractor deck, before it is shuffled.
func unhired(v factories.View) []factories.Contractor {
	shown := make([]bool, factories.NumContractors())
	for _, c := range v.Market.Contractors {
		if c >= 0 && int(c) < len(shown) {
			shown[c] = true
		}
	}
	var deck []factories.Contractor
	for c, ok := range shown {
		if !ok {
			deck = append(deck, factories.Contractor(c))
		}
	}
	return deck
}

// guessPlayer is a seat as its view shows it, its hand left empty.
// Nothing is shared with the view: bots play on guessed worlds in place,
// and two worlds of one view must not write to one array.
func guessPlayer(pv factories.PlayerView) factories.Player {
	p := factories.Player{
		Compound: slices.Clone(pv.Compound), Metal: pv.Metal, Energy: pv.Energy, Goods: pv.Goods,
		Dice: slices.Clone(pv.Dice), Done: pv.Done, Foreman: pv.Foreman,
		HiredHands: pv.HiredHands, Specialists: pv.Specialists, SettingDice: pv.SettingDice,
	}
	p.HQ = factories.Headquarters{Research: slices.Clone(pv.HQ.Research),
		Generate: slices.Clone(pv.HQ.Generate), Mine: slices.Clone(pv.HQ.Mine)}
	if p.Compound == nil {
		p.Compound = []factories.Building{}
	}
	for i := range p.Compound {
		p.Compound[i].Dice = slices.Clone(p.Compound[i].Dice)
	}
	return p
}
