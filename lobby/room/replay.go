package room

import (
	"encoding/json"
	"time"

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

// Replay rebuilds the finished game m of g from its stored moves, one
// frame per move, as viewer saw it from their seat (engine.Spectator for
// anyone who held none), in a room of the replay's own.
func Replay(env *Env, g Game, meta store.Meta, moves []store.Record, viewer int) (RoomInfo, []Frame, error) {
	w := New(env, g, meta).lockWrites() // a room of this replay's own
	defer w.unlock()
	r := w.lock()
	defer r.unlock()
	if err := r.rebuild(meta, nil); err != nil {
		return RoomInfo{}, nil, err
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
