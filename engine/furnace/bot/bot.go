// Package bot holds computer players for Furnace. A bot sees exactly what
// a seated player sees, a furnace.View with its legal moves, and never the
// State: the only hidden thing, the order of the deck, stays hidden.
package bot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// Bot chooses moves for one seat.
type Bot interface {
	// Name is the registry name the bot was made with ("greedy").
	Name() string
	// Choose returns one of v.Legal. It is called only when the seat may
	// act, so v.Legal is never empty; a bot given no legal move returns
	// the zero Move.
	Choose(v furnace.View) furnace.Move
}

// names lists the bots. The first is the one a room hands an away
// player's seat to and the form offers first; search, the strongest, is
// listed last so that rooms keep greedy's quick stand-in.
var names = []string{"greedy", "random", "search"}

// New makes the bot registered under name, seeded with seed, so a seeded
// game with seeded bots always plays out the same way. Bots never take
// moves back: undo is for people (see noUndo).
func New(name string, seed uint64) (Bot, error) {
	switch name {
	case "search":
		return noUndo{newSearch(seed)}, nil
	case "greedy":
		return noUndo{newGreedy(seed)}, nil
	case "random":
		return noUndo{newRandom(seed)}, nil
	}
	return nil, fmt.Errorf("unknown bot %q: choose %s", name, strings.Join(names, " or "))
}

// noUndo hides the undo move from a bot. A room lets every seat take
// moves back, bots' seats too, and a bot that weighed undo among its
// moves could play a move and take it back for ever.
type noUndo struct{ Bot }

// Choose implements Bot.
func (b noUndo) Choose(v furnace.View) furnace.Move {
	if slices.ContainsFunc(v.Legal, isUndo) {
		v.Legal = slices.DeleteFunc(slices.Clone(v.Legal), isUndo)
	}
	return b.Bot.Choose(v)
}

func isUndo(m furnace.Move) bool { return m.Kind == furnace.Undo }

// Names lists the bots, the rooms' default first.
func Names() []string { return slices.Clone(names) }

// JSONBots offers the bots to rooms, which speak JSON: each sees its seat's
// view as the room sends it and answers with a move.
func JSONBots() engine.Bots {
	return engine.TypedBots[furnace.View, furnace.Move](Names(), New)
}

// newRandom makes the random bot (see engine.Random).
func newRandom(seed uint64) Bot { return engine.NewRandom[furnace.View, furnace.Move](seed) }
