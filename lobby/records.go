package lobby

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// A finished game counts in its players' records (package players); its
// room records it in the background, outside the room's lock, and pushes
// the rating changes when they are kept.

// recordRoom records the finished room m once (players.Record), naming
// the game's own opponent of a solo game.
func (l *Lobby) recordRoom(ctx context.Context, m store.Meta) (*store.Outcome, error) {
	return l.players.Record(ctx, m, l.soloOpponent(m.Game, len(m.Seats), m.Options))
}

// SoloOpponent names the game's own opponent of r when r is a solo game
// of a game that has one, as the game names it ("The Machine (hard)"),
// and is "" otherwise.
func (l *Lobby) SoloOpponent(r RoomInfo) string {
	return l.soloOpponent(r.Game, len(r.Seats), r.Options)
}

func (l *Lobby) soloOpponent(game string, seats int, options json.RawMessage) string {
	g, ok := l.byName[game]
	if !ok || seats != 1 || g.SoloOpponent == nil {
		return ""
	}
	opts, err := engine.ReadOptions(g.Rules.Options(), 1, options)
	if err != nil {
		return ""
	}
	return g.SoloOpponent(opts)
}

// Top is the n best of game's leaderboard ("" is the default game), best
// first, as viewer sees it: their own line follows when it is not among
// them.
func (l *Lobby) Top(ctx context.Context, game string, viewer Player, n int) ([]players.Standing, error) {
	g, ok := l.Game(game)
	if !ok {
		return nil, room.NoGame(game)
	}
	you := viewer.ID
	if viewer.Guest {
		you = ""
	}
	return l.players.Top(ctx, g.Name(), you, n)
}

// Mine lists the rooms waiting on player's move, most recently played
// first.
func (li *listing) Mine(ctx context.Context, player Player) ([]RoomInfo, error) {
	rooms, err := li.History(ctx, player.ID)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(rooms, func(r RoomInfo) bool { return !r.YourMove(player.ID) }), nil
}
