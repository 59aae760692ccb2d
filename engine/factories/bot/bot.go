// Package bot holds computer players for Fantastic Factories. A bot sees
// exactly what a seated player sees, a factories.View with its hand and its
// legal moves, and never the State: it cannot peek at other hands or at the
// order of the deck.
package bot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// Bot chooses moves for one seat.
type Bot interface {
	// Name is the registry name the bot was made with ("greedy").
	Name() string
	// Choose returns one of v.Legal. It is called only when the seat may
	// act, so v.Legal is never empty; a bot given no legal move returns the
	// zero Move.
	Choose(v factories.View) factories.Move
}

// makers is the registry: a bot is made from its name and a seed, so a
// seeded game with seeded bots always plays out the same way.
var makers = map[string]func(seed uint64) Bot{
	"random":       newRandom,
	"greedy":       newGreedy,
	"search":       newSearch(searchLevel),
	"search-quick": newSearch(quickLevel),
}

// New makes the bot registered under name, seeded with seed. Bots never
// take moves back: undo is for people (see noUndo).
func New(name string, seed uint64) (Bot, error) {
	make, ok := makers[name]
	if !ok {
		return nil, fmt.Errorf("unknown bot %q: choose %s", name, strings.Join(Names(), " or "))
	}
	return noUndo{make(seed)}, nil
}

// noUndo hides the undo move from a bot. A room lets every seat take
// moves back, bots' seats too, and a bot that weighed undo among its
// moves could play a move and take it back for ever.
type noUndo struct{ Bot }

// Choose implements Bot.
func (b noUndo) Choose(v factories.View) factories.Move {
	if slices.ContainsFunc(v.Legal, isUndo) {
		v.Legal = slices.DeleteFunc(slices.Clone(v.Legal), isUndo)
	}
	return b.Bot.Choose(v)
}

func isUndo(m factories.Move) bool { return m.Kind == factories.Undo }

// Names lists the registered bots in alphabetical order.
func Names() []string {
	var out []string
	for name := range makers {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// JSONBots offers the bots to rooms, which speak JSON: each sees its seat's
// view as the room sends it and answers with a move.
func JSONBots() engine.Bots {
	b := engine.TypedBots[factories.View, factories.Move](Names(), New)
	b.Hint = JSONHint
	return b
}

// newRandom makes the random bot (see engine.Random).
func newRandom(seed uint64) Bot { return engine.NewRandom[factories.View, factories.Move](seed) }
