package lobby

import (
	"slices"
	"strings"

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

// Titles words the games' titles for a sentence: "A", "A and B",
// "A, B and C".
func Titles(games []Game) string {
	var titles []string
	for _, g := range games {
		titles = append(titles, g.Rules.Title())
	}
	if len(titles) < 2 {
		return strings.Join(titles, "")
	}
	return strings.Join(titles[:len(titles)-1], ", ") + " and " + titles[len(titles)-1]
}

// HasBot reports whether the game has a bot called name.
func (g Game) HasBot(name string) bool {
	return g.Bots.New != nil && slices.Contains(g.Bots.Names, name)
}

// offered is the games rooms can play, the default first.
type offered struct {
	all    []Game
	byName map[string]Game
}

func newOffered(games []Game) *offered {
	o := &offered{all: games, byName: map[string]Game{}}
	for _, g := range games {
		o.byName[g.Name()] = g
	}
	return o
}

// Games lists the games rooms can play, the default first.
func (o *offered) Games() []Game { return slices.Clone(o.all) }

// Game returns the game called name; "" is the default game.
func (o *offered) Game(name string) (Game, bool) {
	if name == "" && len(o.all) > 0 {
		return o.all[0], true
	}
	g, ok := o.byName[name]
	return g, ok
}

// gameNames lists the names of the games rooms can play, the default first.
func (o *offered) gameNames() []string {
	names := make([]string, len(o.all))
	for i, g := range o.all {
		names[i] = g.Name()
	}
	return names
}
