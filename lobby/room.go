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
	"github.com/smokestack/smokestack/lobby/store"
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
	meta   store.Meta
	state  engine.State // the game, decoded; nil until every seat is taken
	status engine.Status
	moves  int // moves applied to state
	events []logEntry
	conns  map[*Conn]struct{}
	away   map[int]time.Time // seat -> when its last session here left
	bots   map[int]seatBot
	notice string
	// chat is the newest of the room's chat, as last read from the store
	// (chatting.go); reads are numbered so the last asked wins.
	chat                 []store.ChatLine
	chatAsked, chatTaken int

	// The game's outcome for ratings and records, once recorded
	// (records.go).
	outcome             *store.Outcome
	recording, recorded bool

	// The room's one timer (bots.go): bot moves, clocks, handovers.
	timerStop     func() bool // stops the pending wake-up; nil when none
	timerAt       time.Time   // when it goes off
	timerGen      int         // numbers wake-ups, so a stale one does nothing
	thinking      bool        // a bot chooses a move outside the lock
	botReady      time.Time   // when the bot that may act moves; zero while none may
	handoverRetry time.Time   // a handover failed to store: not before this

	// Turns, for clocks (clock.go): when each acting seat's turn began.
	turnSince  map[int]time.Time
	turnActing []int
	turnRound  int

	// standing holds, by seat, the moves that an undo may still take
	// back, newest last (see undo.go).
	standing map[int][]int

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
func (r *room) rebuild(meta store.Meta, moves []store.Record) error {
	r.meta, r.state, r.moves, r.events, r.standing = meta, nil, 0, nil, nil
	if !meta.Started {
		return nil
	}
	state, err := r.rules.New(len(meta.Seats), meta.Options, meta.Seed)
	if err != nil {
		return err
	}
	r.state = state
	started := meta.StartedAt
	if started.IsZero() {
		started = meta.Created // stored before StartedAt was
	}
	if err := r.startTurns(started); err != nil {
		return err
	}
	return r.replay(moves)
}

// replay applies stored moves on top of the current state.
func (r *room) replay(moves []store.Record) error {
	for _, rec := range moves {
		next, events, err := r.rules.Apply(r.state, rec.Seat, rec.Move)
		if err != nil {
			return fmt.Errorf("stored move %d does not replay: %w", r.moves, err)
		}
		if r.meta.Clock > 0 {
			st, err := r.rules.Status(next)
			if err != nil {
				return err
			}
			r.noteTurns(st, rec.At)
		}
		r.state = next
		r.moves++
		r.record(rec.Seat, events)
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
	if r.outOfTime(seat, r.l.cfg.Now()) {
		return errors.New("your time for this turn ran out: the bot plays it, and you play again from your next turn")
	}
	return r.commit(ctx, seat, mv, 5)
}

// commitOnce commits a bot's move, or catches up and returns errMovedOn
// if another move was stored first: the bot thinks again.
func (r *room) commitOnce(ctx context.Context, seat int, mv json.RawMessage) error {
	return r.commit(ctx, seat, mv, 0)
}

// commit applies and stores mv for seat. On a conflict it catches up and
// judges mv again against the new state, up to retries times.
func (r *room) commit(ctx context.Context, seat int, mv json.RawMessage, retries int) error {
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
		err = r.l.cfg.Store.Append(ctx, r.meta.Code, r.moves, store.Record{Seat: seat, Move: mv, At: now}, st)
		if errors.Is(err, store.ErrConflict) && (attempt < retries || retries == 0) {
			// Someone else (another session's instance) played first: take
			// their moves and judge this one again against the new state,
			// or, for a bot, let it think again.
			if err := r.catchUp(ctx); err != nil {
				r.setNotice(err)
				r.broadcast()
				return errNotPlayed
			}
			if retries == 0 {
				r.broadcast()
				return errMovedOn
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
		r.noteTurns(st, now)
		// Room lists show the round and who acts: tell them when those
		// change, not on every move of a phase everyone plays at once.
		listed := st.Round != r.meta.Round || !slices.Equal(st.Acting, r.meta.Acting) || st.Result != nil
		r.meta.SetStatus(st)
		r.record(seat, events)
		r.broadcast()
		if listed {
			r.l.roomsChanged()
		}
		return nil
	}
}

// join seats p: back in their own seat, in the seat word names (a
// guest's: seatword.go), or in the first free one.
func (r *room) join(ctx context.Context, p Player, word string) (*Conn, error) {
	r.mu.Lock()
	seat := r.meta.SeatOf(p.ID)
	r.mu.Unlock()
	if seat >= 0 {
		return r.reclaim(ctx, p, seat)
	}
	if word != "" {
		return r.reclaimByWord(ctx, p, word)
	}
	for attempt := 0; ; attempt++ {
		r.mu.Lock()
		m := r.meta
		m.Seats = slices.Clone(m.Seats)
		free := slices.IndexFunc(m.Seats, store.Seat.Free)
		if free < 0 || m.Started {
			r.mu.Unlock()
			return nil, errors.New("every seat in this room is taken: you can watch it instead")
		}
		m.Seats[free] = store.Seat{Player: p.ID, Name: seatName(m.Seats, free, p.Name)}
		if p.Guest {
			m.Seats[free].Word, m.Seats[free].From = newSeatWord(), fromDigest(m.Code, p.From)
		}
		err := r.saveMeta(ctx, m)
		if err != nil {
			r.mu.Unlock()
			if errors.Is(err, store.ErrConflict) && attempt < 5 {
				continue
			}
			return nil, err
		}
		// Connected under the same lock as the seat was taken: in between,
		// the seat would look held by someone away since the server
		// started, and the room's timer could hand it to a bot.
		c := r.connectLocked(p, free)
		r.mu.Unlock()
		r.l.cfg.Logger.Info("seat taken", "code", m.Code, "seat", free, "player", p.Name)
		return c, nil
	}
}

// reclaim connects p to the seat their key holds, taking it back from a
// bot that was standing in.
func (r *room) reclaim(ctx context.Context, p Player, seat int) (*Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name := seatName(r.meta.Seats, seat, p.Name)
	if r.meta.Seats[seat].Bot != "" || r.meta.Seats[seat].Name != name {
		m := r.meta
		m.Seats = slices.Clone(m.Seats)
		if m.Seats[seat].Bot != "" {
			// Back from a bot, maybe mid-turn: the turn's clock starts
			// again for them.
			m.Seats[seat].Since = r.l.cfg.Now().UTC()
		}
		m.Seats[seat].Bot, m.Seats[seat].Name = "", name
		if err := r.saveMeta(ctx, m); err != nil {
			return nil, err
		}
		delete(r.bots, seat)
	}
	return r.connectLocked(p, seat), nil
}

// saveMeta stores m as the next metadata version and starts the game when
// the last seat was just taken. The caller holds r.mu.
func (r *room) saveMeta(ctx context.Context, m store.Meta) error {
	if m.Full() && !m.Started {
		// The game starts: its first round and who acts first are stored
		// with the seats, for room lists to show before the first move.
		state, err := r.rules.New(len(m.Seats), m.Options, m.Seed)
		if err != nil {
			return err
		}
		st, err := r.rules.Status(state)
		if err != nil {
			return err
		}
		m.SetStatus(st)
	}
	m.Version = r.meta.Version + 1
	m.Updated = r.l.cfg.Now().UTC()
	if m.Full() && !m.Started {
		m.Started, m.StartedAt = true, m.Updated
	}
	err := r.l.cfg.Store.SaveMeta(ctx, m)
	if errors.Is(err, store.ErrConflict) {
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
	r.l.roomsChanged()
	return nil
}

// addBot seats bot in a free seat, for the host or the player standing
// in for an away host. On the seat of a person it is by's vote to hand it
// to the game's default bot.
func (r *room) addBot(ctx context.Context, by Player, seat int, bot string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seat < 0 || seat >= len(r.meta.Seats) {
		return fmt.Errorf("there is no seat %d", seat+1)
	}
	if s := r.meta.Seats[seat]; s.Player != "" && s.Bot == "" {
		_, err := r.voteLocked(ctx, by, seat) // a person's seat goes to a bot by votes
		return err
	}
	if !r.meta.Seats[seat].Free() {
		return fmt.Errorf("a bot already plays seat %d", seat+1)
	}
	if !r.hostPowers(ctx, by) {
		return errors.New("only the room's host can seat a bot")
	}
	m := r.meta
	m.Seats = slices.Clone(m.Seats)
	m.Seats[seat] = store.Seat{Bot: bot, Name: botName(bot, seat)}
	return r.saveMeta(ctx, m)
}

func (r *room) end(ctx context.Context, by Player) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.hostPowers(ctx, by) {
		return errors.New("only the room's host can end the game")
	}
	if r.meta.Over {
		return errors.New("this game is already over")
	}
	m := r.meta
	m.Over, m.Ended, m.Acting = true, "ended by the host", nil
	return r.saveMeta(ctx, m)
}

func (r *room) connected() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.conns) > 0
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
		u := Update{Room: info, Seat: c.seat, View: v, Log: r.logFor(c.seat), Notice: r.notice, Version: r.moves, Chat: r.recentChat()}
		if c.seat >= 0 || c.invited || c.player.ID != "" && c.player.ID == r.meta.Host {
			u.Invite = invite
		}
		if c.player.Guest && c.seat >= 0 && c.seat < len(r.meta.Seats) {
			u.SeatWord = r.meta.Seats[c.seat].Word
		}
		c.push(u)
	}
	r.scheduleBot()
	r.recordLater()
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
