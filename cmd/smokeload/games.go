package main

import (
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	factoriesui "github.com/smokestack/smokestack/session/factories"
)

// The game smokeload's own servers offer: the load plays Fantastic
// Factories, its players choosing with its bots.
var (
	loadGames   = []lobby.Game{{Rules: factories.Rules{}, Bots: bot.JSONBots()}}
	loadScreens = map[string]session.Game{"factories": factoriesui.UI{}}
)
