package lobby

import (
	"slices"
	"strings"
)

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
