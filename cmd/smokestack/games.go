package main

import (
	"context"
	"io"

	"github.com/smokestack/smokestack/engine/factories"
	factoriesbot "github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/engine/furnace"
	furnacebot "github.com/smokestack/smokestack/engine/furnace/bot"
	"github.com/smokestack/smokestack/lobby"
	factoriesui "github.com/smokestack/smokestack/session/factories"
	furnaceui "github.com/smokestack/smokestack/session/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// game is one game this binary offers: what rooms run, and how
// `simulate` plays it headless with its bots' own simulator.
type game struct {
	lobby.Game
	screen   kit.Game
	simulate func(ctx context.Context, c simConfig) (report, error)
}

// simConfig is a batch of headless games, in the words every game shares.
type simConfig struct {
	Bots     []string          // one per seat
	Options  map[string]string // the game's options, checked, defaults filled in
	Games    int
	Seed     uint64
	Workers  int
	Progress func(done, total int)
}

// report is a batch's result: JSON for scripts, a table for people.
type report interface {
	WriteReport(w io.Writer) error
}

// games lists the games this server offers, the default first: the one
// place that names them. Each brings its rules, its bots and its
// simulator; the lobby, the SSH commands and the screens learn everything
// else from them.
func games() []game {
	return []game{
		{lobby.Game{Rules: factories.Rules{}, Bots: factoriesbot.JSONBots(), SoloOpponent: factories.SoloOpponent}, factoriesui.UI{}, func(ctx context.Context, c simConfig) (report, error) {
			return factoriesbot.Simulate(ctx, factoriesbot.Config{Bots: c.Bots, Difficulty: c.Options["difficulty"],
				Games: c.Games, Seed: c.Seed, Workers: c.Workers, Progress: c.Progress})
		}},
		{lobby.Game{Rules: furnace.Rules{}, Bots: furnacebot.JSONBots()}, furnaceui.UI{}, func(ctx context.Context, c simConfig) (report, error) {
			return furnacebot.Simulate(ctx, furnacebot.Config{Bots: c.Bots, Options: c.Options,
				Games: c.Games, Seed: c.Seed, Workers: c.Workers, Progress: c.Progress})
		}},
	}
}

// lobbyGames is games() as the lobby takes them.
func lobbyGames() []lobby.Game {
	var out []lobby.Game
	for _, g := range games() {
		out = append(out, g.Game)
	}
	return out
}

// screens is games() as the sessions take them.
func screens() map[string]kit.Game {
	out := map[string]kit.Game{}
	for _, g := range games() {
		if g.screen != nil {
			out[g.Name()] = g.screen
		}
	}
	return out
}

func gameNames(gs []game) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Name())
	}
	return out
}
