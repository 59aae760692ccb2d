package main

import (
	"slices"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/games"
)

// The game smokeload's own servers offer, from the registry: the load
// plays Fantastic Factories, its players choosing with its bots.
var (
	loadGames   = games.Lobby(played)
	loadScreens = games.Screens(played)
	played      = slices.DeleteFunc(games.All(), func(g games.Game) bool { return g.Name() != factories.Rules.Name() })
)
