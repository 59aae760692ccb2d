package main

import (
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
	factoriesui "github.com/smokestack/smokestack/session/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// The game smokeload's own servers offer: the load plays Fantastic
// Factories, its players choosing with its bots.
var (
	loadGames   = []lobby.Game{{Rules: factories.Rules{}, Bots: bot.JSONBots()}}
	loadScreens = map[string]kit.Game{"factories": factoriesui.UI{}}
)
