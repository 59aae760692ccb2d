package main

import (
	"encoding/json"
	"fmt"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
)

// factoriesBots makes the lobby's bot players from package bot: each sees
// its seat's view, as JSON from the room, and answers with a move.
func factoriesBots(game, name string, seed uint64) (lobby.BotFunc, error) {
	if game != (factories.Rules{}).Name() {
		return nil, fmt.Errorf("no bots play %q", game)
	}
	b, err := bot.New(name, seed)
	if err != nil {
		return nil, err
	}
	return func(view json.RawMessage) (json.RawMessage, error) {
		var v factories.View
		if err := json.Unmarshal(view, &v); err != nil {
			return nil, fmt.Errorf("bot %s: read view: %w", name, err)
		}
		return json.Marshal(b.Choose(v))
	}, nil
}
