package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/smokestack/smokestack/engine"
)

// logSize is how many recent events a room keeps for its sessions' logs.
const logSize = 200

// room is one game being played here. Its mutex serialises everything that
// changes it, so moves from all its sessions apply one at a time, and every
// change is stored before it is pushed.
type room struct {
	l     *Lobby
	game  Game
	rules engine.Ruleset // game.Rules

	mu     sync.Mutex
	meta   Meta
	state  json.RawMessage // nil until every seat is taken
	status engine.Status
	moves  int // moves applied to state
	events []engine.Event
	conns  map[*Conn]struct{}
	away   map[int]time.Time // seat -> when its last session here left
	bots   map[int]engine.Bot
	botDue bool // a bot move is scheduled
	notice string
	// moveRates pace each seat's moves (limits.go).
	moveRates map[int]*rate.Limiter

	// With a store shared between instances (see presence.go):
	elsewhere     map[int]bool      // seats sessions on other instances hold
	lastHeld      map[int]time.Time // seat -> when any instance last held it
	claimed       []int             // the seats this instance last claimed
	presenceDirty bool              // the seats held here changed since the last claim
	presenceGen   int               // counts those changes
	presenceAsked int               // numbers reads of the shared presence
	presenceTaken int               // the newest read whose answer was taken
}

// rebuild sets the room to meta and replays moves from the seed.
func (r *room) rebuild(meta Meta, moves []Record) error {
	r.meta, r.state, r.moves, r.events = meta, nil, 0, nil
	if !meta.Started {
		return nil
	}
	state, err := r.rules.New(len(meta.Seats), meta.Options, meta.Seed)
	if err != nil {
		return err
	}
	r.state = state
	return r.replay(moves)
}

// replay applies stored moves on top of the current state.
func (r *room) replay(moves []Record) error {
	for _, rec := range moves {
		next, events, err := r.rules.Apply(r.state, rec.Seat, rec.Move)
		if err != nil {
			return fmt.Errorf("stored move %d does not replay: %w", r.moves, err)
		}
		r.state = next
		r.moves++
		r.record(events)
	}
	return r.updateStatus()
}

func (r *room) updateStatus() error {
	if r.state == nil {
		r.status = engine.Status{}
		return nil
	}
	st, err := r.rules.Status(r.state)
	r.status = st
	return err
}

func (r *room) record(events []engine.Event) {
	r.events = append(r.events, events...)
	if over := len(r.events) - logSize; over > 0 {
		r.events = slices.Delete(r.events, 0, over)
	}
}

// catchUp applies moves stored by others since this room last looked,
// reading only those. A store that cannot answer leaves the room as it
// was, with a notice.
func (r *room) catchUp(ctx context.Context) error {
	meta, moves, err := r.l.cfg.Store.Load(ctx, r.meta.Code, r.moves)
	if err != nil {
		return err
	}
	switch {
	case meta.Moves < r.moves:
		// The log is shorter than what this room applied (a store that
		// lost acknowledged writes): every instance rebuilds from it.
		if meta, moves, err = r.l.cfg.Store.Load(ctx, r.meta.Code, 0); err != nil {
			return err
		}
		return r.rebuild(meta, moves)
	case meta.Started && !r.meta.Started:
		return r.rebuild(meta, moves)
	}
	r.meta = meta
	return r.replay(moves)
}

// refresh is called when another instance changed the room or the seats
// it holds there.
func (r *room) refresh(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.setNotice(r.catchUp(ctx))
	if err := r.readPresence(ctx); err != nil {
		r.l.storeFault("seat presence", err, "code", r.meta.Code)
	}
	r.broadcast()
}

func (r *room) setNotice(err error) {
	r.notice = ""
	if err != nil {
		r.notice = "reconnecting to the game service…"
		r.l.storeFault("room store", err, "code", r.meta.Code)
	}
}

// errNotPlayed is what a player sees when the store refused a move: an
// ErrUnavailable that says the move is not in the game.
var errNotPlayed = &notPlayedError{}

type notPlayedError struct{}

func (*notPlayedError) Error() string {
	return "the game service is unavailable right now: nothing was played, try again in a moment"
}

func (*notPlayedError) Unwrap() error { return ErrUnavailable }

// move validates and commits one move for seat. The move is durable in the
// store before the new state is shown to anyone.
func (r *room) move(ctx context.Context, seat int, mv json.RawMessage) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.commit(ctx, seat, mv)
}

func (r *room) commit(ctx context.Context, seat int, mv json.RawMessage) error {
	if r.meta.Over {
		return errors.New("this game is over")
	}
	if r.state == nil {
		return errors.New("the game starts when every seat is taken")
	}
	for attempt := 0; ; attempt++ {
		next, events, err := r.rules.Apply(r.state, seat, mv)
		if err != nil {
			return err
		}
		st, err := r.rules.Status(next)
		if err != nil {
			return err
		}
		if st.Over && st.Result == nil {
			st.Result = &engine.Result{} // a ruleset that did not say: over all the same
		}
		now := r.l.cfg.Now().UTC()
		began := time.Now()
		err = r.l.cfg.Store.Append(ctx, r.meta.Code, r.moves, Record{Seat: seat, Move: mv, At: now}, st.Result)
		if errors.Is(err, ErrConflict) && attempt < 5 {
			// Someone else (another session's instance) played first: take
			// their moves and judge this one again against the new state.
			if err := r.catchUp(ctx); err != nil {
				r.setNotice(err)
				r.broadcast()
				return errNotPlayed
			}
			continue
		}
		if err != nil {
			r.setNotice(err)
			r.broadcast()
			return errNotPlayed
		}
		r.l.observer().MoveStored(time.Since(began))
		r.notice = ""
		r.state, r.status = next, st
		r.moves++
		r.meta.Updated = now
		if st.Result != nil {
			r.meta.Over, r.meta.Result = true, st.Result
		}
		r.record(events)
		r.broadcast()
		return nil
	}
}

// join seats p: back in their own seat, or in the first free one.
func (r *room) join(ctx context.Context, p Player) (*Conn, error) {
	r.mu.Lock()
	seat := r.meta.SeatOf(p.ID)
	r.mu.Unlock()
	if seat >= 0 {
		return r.reclaim(ctx, p, seat)
	}
	for attempt := 0; ; attempt++ {
		r.mu.Lock()
		m := r.meta
		m.Seats = slices.Clone(m.Seats)
		free := slices.IndexFunc(m.Seats, Seat.Free)
		if free < 0 || m.Started {
			r.mu.Unlock()
			return nil, errors.New("every seat in this room is taken: you can watch it instead")
		}
		m.Seats[free] = Seat{Player: p.ID, Name: p.Name}
		err := r.saveMeta(ctx, m)
		r.mu.Unlock()
		if errors.Is(err, ErrConflict) && attempt < 5 {
			continue
		}
		if err != nil {
			return nil, err
		}
		r.l.cfg.Logger.Info("seat taken", "code", m.Code, "seat", free, "player", p.Name)
		return r.connect(p, free), nil
	}
}

// reclaim connects p to the seat their key holds, taking it back from a
// bot that was standing in.
func (r *room) reclaim(ctx context.Context, p Player, seat int) (*Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.meta.Seats[seat].Bot != "" || r.meta.Seats[seat].Name != p.Name {
		m := r.meta
		m.Seats = slices.Clone(m.Seats)
		m.Seats[seat].Bot, m.Seats[seat].Name = "", p.Name
		if err := r.saveMeta(ctx, m); err != nil {
			return nil, err
		}
		delete(r.bots, seat)
	}
	return r.connectLocked(p, seat), nil
}

// saveMeta stores m as the next metadata version and starts the game when
// the last seat was just taken. The caller holds r.mu.
func (r *room) saveMeta(ctx context.Context, m Meta) error {
	if m.Full() && !m.Started {
		m.Started = true
	}
	m.Version = r.meta.Version + 1
	m.Updated = r.l.cfg.Now().UTC()
	err := r.l.cfg.Store.SaveMeta(ctx, m)
	if errors.Is(err, ErrConflict) {
		if cerr := r.catchUp(ctx); cerr != nil {
			return r.l.unavailable("room catch up", cerr, "code", m.Code)
		}
		return err
	}
	if err != nil {
		return r.l.unavailable("save room", err, "code", m.Code)
	}
	started := m.Started && !r.meta.Started
	r.meta = m
	if started {
		if err := r.rebuild(m, nil); err != nil {
			return err
		}
		r.l.cfg.Logger.Info("game started", "code", m.Code, "seats", len(m.Seats))
	}
	r.broadcast()
	return nil
}

func (r *room) addBot(ctx context.Context, by Player, seat int, bot string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if by.ID != r.meta.Host {
		return errors.New("only the room's host can seat a bot")
	}
	if seat < 0 || seat >= len(r.meta.Seats) {
		return fmt.Errorf("there is no seat %d", seat+1)
	}
	s := r.meta.Seats[seat]
	if !s.Free() && s.Bot == "" {
		// The player may be at the table through another instance: ask.
		if err := r.readPresence(ctx); err != nil {
			r.l.storeFault("seat presence", err, "code", r.meta.Code)
			return fmt.Errorf("cannot tell whether %s is still playing seat %d: try again in a moment", s.Name, seat+1)
		}
	}
	if !s.Free() && r.present(seat) {
		return fmt.Errorf("%s is still playing seat %d", s.Name, seat+1)
	}
	m := r.meta
	m.Seats = slices.Clone(m.Seats)
	m.Seats[seat].Bot = bot
	if s.Free() {
		m.Seats[seat].Name = botName(bot, seat)
	}
	return r.saveMeta(ctx, m)
}

func (r *room) end(ctx context.Context, by Player) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if by.ID != r.meta.Host {
		return errors.New("only the room's host can end the game")
	}
	if r.meta.Over {
		return errors.New("this game is already over")
	}
	m := r.meta
	m.Over, m.Ended = true, "ended by the host"
	return r.saveMeta(ctx, m)
}

func (r *room) connected() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.conns) > 0
}

func (r *room) connect(p Player, seat int) *Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.connectLocked(p, seat)
}

func (r *room) connectLocked(p Player, seat int) *Conn {
	return r.attachLocked(&Conn{room: r, player: p, seat: seat, updates: make(chan Update, 1)})
}

// attachLocked adds c to the room's connections. The caller holds r.mu.
func (r *room) attachLocked(c *Conn) *Conn {
	seat := c.seat
	r.conns[c] = struct{}{}
	if seat >= 0 {
		delete(r.away, seat)
		r.presenceChanged()
	}
	r.broadcast()
	return c
}

func (r *room) disconnect(c *Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.conns[c]; !ok {
		return
	}
	delete(r.conns, c)
	if c.seat >= 0 && !r.presentHere(c.seat) {
		r.away[c.seat] = r.l.presenceNow()
		r.presenceChanged()
	}
	r.broadcast()
}

// broadcast pushes every connection its seat's current view, and lets a
// bot take its turn. The caller holds r.mu, so each connection has one
// writer and the newest update always wins.
func (r *room) broadcast() {
	views := map[int]json.RawMessage{}
	info := r.info()
	invite := ""
	if !r.meta.Public {
		invite = r.meta.Invite()
	}
	for c := range r.conns {
		v, ok := views[c.seat]
		if !ok && r.state != nil {
			var err error
			if v, err = r.rules.View(r.state, c.seat); err != nil {
				r.l.cfg.Logger.Error("view", "code", r.meta.Code, "seat", c.seat, "err", err)
			}
			views[c.seat] = v
		}
		u := Update{Room: info, Seat: c.seat, View: v, Log: r.logFor(c.seat), Notice: r.notice, Version: r.moves}
		if c.seat >= 0 || c.invited || c.player.ID != "" && c.player.ID == r.meta.Host {
			u.Invite = invite
		}
		c.push(u)
	}
	r.scheduleBot()
}

// logFor words the recent events for seat, naming the players.
func (r *room) logFor(seat int) []string {
	out := make([]string, 0, len(r.events))
	for _, e := range r.events {
		text := e.For(seat)
		if e.Seat >= 0 && e.Seat < len(r.meta.Seats) {
			who := r.meta.Seats[e.Seat].Name
			if e.Seat == seat {
				who = "You"
			}
			text = who + " " + text
		}
		out = append(out, text)
	}
	return out
}
