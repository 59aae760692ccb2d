package room

import (
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Game is one game the lobby offers: its rules and its computer players.
type Game struct {
	Rules engine.Ruleset
	// Bots may be zero: rooms of the game then have no bots.
	Bots engine.Bots
	// SoloOpponent names the game's own opponent in a solo game with
	// the given options ("The Machine (hard)"), for its player's solo
	// record; nil when the game has none, and solo games count nowhere.
	SoloOpponent func(options map[string]string) string
}

// Name is the game's stored identifier.
func (g Game) Name() string { return g.Rules.Name() }

// HasBot reports whether the game has a bot called name.
func (g Game) HasBot(name string) bool {
	return g.Bots.New != nil && slices.Contains(g.Bots.Names, name)
}
