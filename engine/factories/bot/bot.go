// Package bot holds computer players for Fantastic Factories. A bot sees
// exactly what a seated player sees, a factories.View with its hand and its
// legal moves, and never the State: it cannot peek at other hands or at the
// order of the deck.
package bot

import (
	"fmt"
	"slices"
	"strings"

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
	"random": newRandom,
	"greedy": newGreedy,
}

// New makes the bot registered under name, seeded with seed.
func New(name string, seed uint64) (Bot, error) {
	make, ok := makers[name]
	if !ok {
		return nil, fmt.Errorf("unknown bot %q: choose %s", name, strings.Join(Names(), " or "))
	}
	return make(seed), nil
}

// Names lists the registered bots in alphabetical order.
func Names() []string {
	var out []string
	for name := range makers {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}
