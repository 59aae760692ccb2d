// Package games is the one list of the games this server offers. A game
// is one value, as an image format is one image.RegisterFormat call: its
// rules, its bots, its solo opponent, its screens and its simulator. Every
// binary and every test that needs the games reads them here; the lobby,
// the SSH commands and the screens learn everything else from the values.
//
// Adding a game is one entry in All (see docs/adding-a-game.md).
package games

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
	factoriesbot "github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/engine/furnace"
	furnacebot "github.com/smokestack/smokestack/engine/furnace/bot"
	"github.com/smokestack/smokestack/lobby"
	factoriesui "github.com/smokestack/smokestack/session/factories"
	furnaceui "github.com/smokestack/smokestack/session/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// Game is one game: what rooms run (its rules, bots and solo opponent),
// how sessions draw it, and how `smokestack simulate` plays it headless.
type Game struct {
	lobby.Game
	// Screen draws the game's views; nil for a game played by commands
	// alone.
	Screen kit.Game
	// Simulate plays a batch of headless games between the game's bots;
	// nil when it has none.
	Simulate func(ctx context.Context, b engine.Batch) (Report, error)
}

// Report is a simulated batch's result: JSON for scripts, and a table
// for people.
type Report interface {
	WriteReport(w io.Writer) error
}

// All lists the games, the default first: the one place that names them.
func All() []Game {
	return []Game{
		{
			Game:     lobby.Game{Rules: factories.Rules, Bots: factoriesbot.JSONBots(), SoloOpponent: factories.SoloOpponent},
			Screen:   factoriesui.UI,
			Simulate: Simulator(factoriesbot.Simulate),
		},
		{
			Game:     lobby.Game{Rules: furnace.Rules, Bots: furnacebot.JSONBots()},
			Screen:   furnaceui.UI,
			Simulate: Simulator(furnacebot.Simulate),
		},
	}
}

// Load returns All once Check has passed them: what a binary serves.
func Load() ([]Game, error) {
	gs := All()
	if err := Check(gs); err != nil {
		return nil, err
	}
	return gs, nil
}

// Flags are the flags that `new` (the settings every room has, whatever
// its game) and `smokestack simulate` take beside the games' own options,
// which they offer as flags too: no option may take one of these names.
var Flags = []string{"game", "players", "private", "seed", "bots", "grace", "clock", "games", "workers", "json"}

// Check refuses a list of games that cannot be offered together: two
// games of one name, or an option named as one of Flags, which `new` and
// `simulate` could not offer beside their own.
func Check(gs []Game) error {
	seen := map[string]bool{}
	for _, g := range gs {
		if seen[g.Name()] {
			return fmt.Errorf("two games are called %q", g.Name())
		}
		seen[g.Name()] = true
		for _, o := range g.Rules.Options() {
			if slices.Contains(Flags, o.Name) {
				return fmt.Errorf("%s: the option %q has the name of a flag of new or simulate (%v): rename it", g.Name(), o.Name, Flags)
			}
		}
	}
	return nil
}

// Simulator makes a game's simulator, whose result is its own type, one
// the registry holds.
func Simulator[R Report](simulate func(context.Context, engine.Batch) (R, error)) func(context.Context, engine.Batch) (Report, error) {
	return func(ctx context.Context, b engine.Batch) (Report, error) {
		return simulate(ctx, b)
	}
}

// Lobby returns gs as the lobby takes them.
func Lobby(gs []Game) []lobby.Game {
	out := make([]lobby.Game, 0, len(gs))
	for _, g := range gs {
		out = append(out, g.Game)
	}
	return out
}

// Screens returns the screens of gs by game name, as sessions take them.
func Screens(gs []Game) map[string]kit.Game {
	out := map[string]kit.Game{}
	for _, g := range gs {
		if g.Screen != nil {
			out[g.Name()] = g.Screen
		}
	}
	return out
}

// Names lists the names of gs, in order.
func Names(gs []Game) []string {
	out := make([]string, 0, len(gs))
	for _, g := range gs {
		out = append(out, g.Name())
	}
	return out
}
