package room

import (
	"context"
	"errors"
	"sync"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store"
)

// hintMoves is how many moves a hint rates.
const hintMoves = 3

// Hint rates the best moves of the connection's own seat, best first, as
// the game's hint sees them from the seat's view (engine.Bots.Hint): for
// a player learning the game, in a practice room, a solo game or a table
// that is not rated, never in a rated game and never for another seat.
// The first hint marks the room (store.Meta.Hinted) for its replay and
// its players' history.
func (c *Conn) Hint(ctx context.Context) ([]engine.Hint, error) {
	if c.seat == engine.Spectator {
		return nil, errSpectatorHint
	}
	r := c.room
	h := r.lock()
	m, moves, hint := h.meta, h.table.moves, h.game.Bots.Hint
	view, err := h.table.view(c.seat)
	h.unlock()
	switch {
	case hint == nil:
		return nil, Refuse("this game has no hints", "lobby.noHints")
	case Rated(m):
		return nil, Refuse("no hints in a rated game: ask in a practice room, a solo game or a table with one player", "lobby.hintRated")
	case m.Over:
		return nil, errGameOver
	case err != nil:
		return nil, r.env.Unavailable("hint view", err, "code", m.Code)
	case view == nil:
		return nil, Refuse("the game has not started", "lobby.hintNotStarted")
	}
	// Seeded by the room and the position, so the same question gets
	// the same answer, and one the seed's holder could work out anyway.
	hints, err := r.hints.get(c.seat, moves, func() ([]engine.Hint, error) {
		return hint(view, engine.SeatSeed(m.Seed+uint64(moves), c.seat), hintMoves)
	})
	if err != nil {
		return nil, r.env.Unavailable("hint", err, "code", m.Code)
	}
	if len(hints) == 0 {
		return nil, Refuse("nothing to hint: it is not your move", "lobby.hintNotYourMove")
	}
	if err := r.markHinted(ctx); err != nil {
		return nil, err
	}
	return hints, nil
}

// hintCache keeps each seat's last hint with the position (the count of
// moves) it was asked in, and works out one hint at a time: a hint costs
// a search of up to a few hundred milliseconds of a core, so a room asks
// for no more than one core, and asking again costs nothing.
type hintCache struct {
	mu   sync.Mutex // held while a hint is worked out
	last map[int]hintAt
}

type hintAt struct {
	moves int
	hints []engine.Hint
}

// get returns seat's hint at moves, from the cache or made by make.
func (h *hintCache) get(seat, moves int, make func() ([]engine.Hint, error)) ([]engine.Hint, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if at, ok := h.last[seat]; ok && at.moves == moves {
		return at.hints, nil
	}
	hints, err := make()
	if err != nil {
		return nil, err
	}
	if h.last == nil {
		h.last = map[int]hintAt{}
	}
	h.last[seat] = hintAt{moves: moves, hints: hints}
	return hints, nil
}

// errSpectatorHint refuses a spectator a hint: hints are for a seat's own
// moves.
var errSpectatorHint = Refuse("hints are for the players' own moves", "lobby.spectatorHint")

// Rated reports whether m's game is rated when it ends: at least two
// people with keys at a table whose seed nobody chose (players.Counts).
// A rated game is played without hints.
func Rated(m store.Meta) bool {
	if m.Practice {
		return false
	}
	people := 0
	for _, s := range m.Seats {
		if s.Player != "" && !players.IsGuest(s.Player) {
			people++
		}
	}
	return people >= 2
}

// markHinted marks the room as one where a hint was asked, once.
func (r *Room) markHinted(ctx context.Context) error {
	w := r.lockWrites()
	defer w.unlock()
	return w.markHinted(ctx)
}

func (r writer) markHinted(ctx context.Context) error {
	for range 5 {
		if r.meta.Hinted {
			return nil
		}
		m := r.meta
		m.Hinted = true
		err := r.saveMeta(ctx, m, nil)
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return r.env.Unavailable("mark hinted", store.ErrConflict, "code", r.code)
}
