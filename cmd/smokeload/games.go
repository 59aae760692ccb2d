package main

import (
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// gameNamed is the game smokeload plays (--game), from the registry, the
// one list of the games: its first, the server's default, when name is
// empty. Its players choose their moves with its bots, from the views
// the play protocol sends as JSON, so smokeload plays any game the
// registry holds without knowing it.
func gameNamed(name string) (games.Game, error) {
	all, err := games.Load()
	if err != nil {
		return games.Game{}, err
	}
	if name == "" {
		return all[0], nil
	}
	for _, g := range all {
		if g.Name() == name {
			return g, nil
		}
	}
	return games.Game{}, fmt.Errorf("no game %q: choose %s", name, strings.Join(games.Names(all), " or "))
}

// served is what smokeload's own servers offer: the played game alone,
// so `new` makes a room of it by default.
func served(g games.Game) ([]lobby.Game, map[string]kit.Game) {
	return games.Lobby([]games.Game{g}), games.Screens([]games.Game{g})
}

// botHelp lists each game's bots for --bot's help.
func botHelp() string {
	var each []string
	for _, g := range games.All() {
		each = append(each, g.Name()+": "+strings.Join(g.Bots.Names, ", "))
	}
	return strings.Join(each, "; ")
}
