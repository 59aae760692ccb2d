package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Frame is one step of a replay: the view after a move, as the viewer
// saw it in the game (Replay).
type Frame struct {
	View  json.RawMessage `json:"view"`
	Round int             `json:"round"`
	// Seat made the move that led here (-1 for the starting position).
	Seat int `json:"seat"`
	// Log is what that move did, worded for the viewer.
	Log []string `json:"log,omitempty"`
	// Events are that move's events, for a screen to word in its
	// viewer's language.
	Events []*LogEntry `json:"-"`
	// Bot names the bot that made that move for the seat's person, if
	// one did (store.Record.Bot).
	Bot string `json:"bot,omitempty"`
	// At is when that move was made (zero for the starting position), so
	// a replay can show the chat said meanwhile (ReplayChat).
	At time.Time `json:"at,omitzero"`
}

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
		return RoomInfo{}, nil, refuse("replays open once the game is over: watch it live instead", "lobby.replayNotOver")
	}
	g, ok := l.byName[meta.Game]
	if !ok {
		return RoomInfo{}, nil, notOffered(code, meta.Game)
	}
	if !meta.Started {
		return infoOf(meta, nil, engine.Status{}), nil, refuse("this game ended before it started", "lobby.replayNeverStarted")
	}
	w := newRoom(l.env, g, meta).lockWrites() // a room of this replay's own
	defer w.unlock()
	r := w.lock()
	defer r.unlock()
	if err := r.rebuild(meta, nil); err != nil {
		return RoomInfo{}, nil, err
	}
	viewer := meta.SeatOf(p.ID)
	if viewer < 0 {
		viewer = engine.Spectator
	}
	frame := func(rec store.Record) (Frame, error) {
		v, err := r.table.view(viewer)
		if err != nil {
			return Frame{}, err
		}
		f := Frame{View: v, Round: r.table.status.Round, Seat: rec.Seat, Bot: rec.Bot, At: rec.At}
		f.Log, _ = r.log.wordedFor(viewer, r.meta.Seats)
		f.Events = r.log.entries()
		r.log.events = nil
		return f, nil
	}
	first, err := frame(store.Record{Seat: -1})
	if err != nil {
		return RoomInfo{}, nil, err
	}
	frames := []Frame{first}
	for _, rec := range moves {
		if err := r.replay([]store.Record{rec}); err != nil {
			return RoomInfo{}, nil, err
		}
		f, err := frame(rec)
		if err != nil {
			return RoomInfo{}, nil, err
		}
		frames = append(frames, f)
	}
	return r.info(), frames, nil
}
