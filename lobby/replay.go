package lobby

import (
	"context"
	"errors"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// Replay rebuilds the finished game in the room invite names from its
// stored log, one frame per move, as p saw it from their seat: their own
// hand, and of the others only what the table showed; anyone who held
// no seat sees it as a spectator did. Never another seat's hand, nor the
// deck. A private room's replay needs its invite, as watching it does,
// unless p held a seat there or was its host.
func (l *Lobby) Replay(ctx context.Context, invite string, p Player) (RoomInfo, []Frame, error) {
	var meta store.Meta
	var moves []store.Record
	_, err := l.lookup(ctx, invite, "", p, func(code string) (store.Meta, error) {
		var err error
		meta, moves, err = l.cfg.Store.Load(ctx, code, 0)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			err = l.unavailable("load room", err, "code", code)
		}
		return meta, err
	})
	if err != nil {
		return RoomInfo{}, nil, err
	}
	code := meta.Code
	if !meta.Over {
		return RoomInfo{}, nil, room.Refuse("replays open once the game is over: watch it live instead", "lobby.replayNotOver")
	}
	g, ok := l.byName[meta.Game]
	if !ok {
		return RoomInfo{}, nil, room.NotOffered(code, meta.Game)
	}
	if !meta.Started {
		return room.InfoOf(meta, nil, engine.Status{}), nil, room.Refuse("this game ended before it started", "lobby.replayNeverStarted")
	}
	viewer := meta.SeatOf(p.ID)
	if viewer < 0 {
		viewer = engine.Spectator
	}
	return room.Replay(l.env, g, meta, moves, viewer)
}
