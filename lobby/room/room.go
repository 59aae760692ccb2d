package room

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// Room is one game being played here, in named parts: the game at its
// table (table.go), its log with what may be taken back (undo.go), the
// turns' clock (clock.go), who is at the table (presence.go), the votes
// to hand away seats (votes.go) and the one timer for bots, clocks and
// handovers (bots.go). Its own methods live in four files: this one (its
// life: loading, replaying, catching up), commit.go (every change it
// stores), seating.go (who sits and watches) and broadcast.go (what it
// shows and shares).
//
// Two locks, held only as the types of roomlocks.go: writing (a writer)
// makes the room's changes one at a time, mu (held) guards its memory.
type Room struct {
	env  *Env
	game Game
	code string // the room's code, for ever: read with no lock

	writing sync.Mutex

	mu     sync.Mutex
	meta   store.Meta
	table  table
	log    undoLog
	clock  turnClock
	seen   presence
	timer  botTimer
	conns  map[*Conn]struct{}
	notice string
	// chat is the newest of the room's chat, as last read from the store;
	// reads are numbered so the last asked wins.
	chat                 []store.ChatLine
	chatAsked, chatTaken int
	// The game's outcome for ratings and records, once recorded
	// (records.go).
	outcome             *store.Outcome
	recording, recorded bool

	// These have locks of their own.
	moveRates moveRates // pace each seat's moves (limits.go)
	hints     hintCache // the last hint of each seat (hint.go)
	refreshes Rerun     // catch-ups with other instances' changes
	chatReads Rerun     // reads of chat other instances wrote
	seatReads Rerun     // reads of the seats other instances hold
}

// New is a room of game g, as m describes it, not yet replayed.
func New(env *Env, g Game, m store.Meta) *Room {
	return &Room{env: env, game: g, code: m.Code, meta: m, table: table{rules: g.Rules}, conns: map[*Conn]struct{}{},
		seen: presence{started: env.Started, shared: env.Presence != nil}}
}

// rebuild sets the room, nobody else's yet, to meta and replays moves
// from the seed.
func (r *Room) rebuild(meta store.Meta, moves []store.Record) error {
	w := r.lockWrites()
	defer w.unlock()
	c := w.lock()
	defer c.unlock()
	return c.rebuild(meta, moves)
}

// rebuild sets the room to meta and replays moves from the seed.
func (r changing) rebuild(meta store.Meta, moves []store.Record) error {
	r.meta, r.log, r.clock = meta, undoLog{}, turnClock{}
	r.table.clear()
	if !meta.Started {
		return nil
	}
	if err := r.table.start(&r.meta); err != nil {
		return err
	}
	started := meta.StartedAt
	if started.IsZero() {
		started = meta.Created // stored before StartedAt was
	}
	r.clock.start(meta.Clock, r.env.Pauses, r.table.status, started)
	return r.replay(moves)
}

// replay applies stored moves on top of the current state.
func (r changing) replay(moves []store.Record) error {
	for _, rec := range moves {
		next, events, err := r.table.play(rec.Seat, rec.Move, r.clock.per > 0)
		if err != nil {
			return fmt.Errorf("stored move %d does not replay: %w", r.table.moves, err)
		}
		r.clock.note(next.status, rec.At)
		r.table = next
		r.log.record(next.moves-1, rec.Seat, rec.Bot != "", events)
	}
	return r.table.settle()
}

// catchUp applies moves stored by others since this room last looked,
// reading only those. A store that cannot answer leaves the room as it
// was. The store is read outside the memory's lock.
func (r writer) catchUp(ctx context.Context) error {
	code, have := r.code, r.table.moves
	meta, moves, err := r.env.Store.Load(ctx, code, have)
	if err != nil {
		return err
	}
	shorter := meta.Moves < have
	if shorter {
		// The log is shorter than what this room applied (a store that
		// lost acknowledged writes): every instance rebuilds from it.
		if meta, moves, err = r.env.Store.Load(ctx, code, 0); err != nil {
			return err
		}
	}
	c := r.lock()
	defer c.unlock()
	if shorter || meta.Started && !c.meta.Started {
		return c.rebuild(meta, moves)
	}
	c.meta = meta
	return c.replay(moves)
}

// refreshSoon has the room catch up with a change another instance made
// to it or to the seats it holds there, on the room's own goroutine: one
// catch-up at a time per room, and rooms never wait on each other.
func (r *Room) refreshSoon(ctx context.Context) {
	r.refreshes.Kick(func() { r.refresh(ctx) })
}

// refresh catches up with the store and pushes the room as it is then.
// Presence is not read: a change in it is news of its own (SeatsChange).
func (r *Room) refresh(ctx context.Context) {
	w := r.lockWrites()
	err := w.catchUp(ctx)
	c := w.lock()
	c.setNotice(err)
	c.unlock()
	w.unlock()
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		r.refreshAgain(ctx)
	}
	h := r.lock()
	defer h.unlock()
	h.broadcast()
}

// refreshRetry is how soon a room whose catch-up failed tries again.
const refreshRetry = 500 * time.Millisecond

// refreshAgain has the room catch up once more a while from now, while
// anyone is in it. The change that asked for the failed catch-up was
// announced once (a failover or a cut link fails the read of it): without
// another try the room would stay behind the store, its players waiting
// on a turn the store has already moved on from, until some other change
// to the room came along.
func (r *Room) refreshAgain(ctx context.Context) {
	time.AfterFunc(refreshRetry, func() {
		if ctx.Err() == nil && r.connected() {
			r.refreshSoon(ctx)
		}
	})
}

// The room's notices (Update.Notice), which sessions word in their
// players' languages: the store fails it (short, and saying that it is
// being dealt with), or a bot could not move (and why, after the prefix).
const (
	NoticeReconnecting = "reconnecting to the game service…"
	NoticeBotFailed    = "a bot could not move: "
)

// setNotice shows the room's sessions that the store failed, or, with
// err nil, no longer.
func (r held) setNotice(err error) {
	r.notice = ""
	if err != nil {
		r.notice = NoticeReconnecting
		r.env.Fault("room store", err, "code", r.meta.Code)
	}
}

// connected reports whether any session here is in the room.
func (r *Room) connected() bool {
	h := r.lock()
	defer h.unlock()
	return len(h.conns) > 0
}

// votes judges the table's votes from the room as it is.
func (r held) votes() seatVotes {
	return seatVotes{meta: &r.meta, seen: &r.seen, bot: r.game.DefaultBot(), run: r.env.Pauses}
}

// awaySince is since when seat's person has been away.
func (r held) awaySince(seat int) time.Time { return r.seen.awaySince(seat, r.meta.Updated) }

// outOfTime reports whether seat's time for its turn ran out by now,
// with someone waiting for it.
func (r held) outOfTime(seat int, now time.Time) bool {
	return r.clock.outOfTime(seat, &r.meta, now, r.seen.present)
}
