package room

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// join seats p: back in their own seat, in the seat word names (a
// guest's: seatword.go), or in the first free one.
func (r *Room) join(ctx context.Context, p Player, word string) (*Conn, error) {
	h := r.lock()
	seat := h.meta.SeatOf(p.ID)
	h.unlock()
	if seat >= 0 {
		return r.reclaim(ctx, p, seat)
	}
	if word != "" {
		return r.reclaimByWord(ctx, p, word)
	}
	w := r.lockWrites()
	if seat := w.meta.SeatOf(p.ID); seat >= 0 {
		// Another session of theirs sat down while this one waited.
		w.unlock()
		return r.reclaim(ctx, p, seat)
	}
	defer w.unlock()
	c, err := w.sit(ctx, p, func() (store.Meta, int, error) {
		m := w.meta
		if seat := m.SeatOf(p.ID); seat >= 0 {
			// The catch-up after a conflict shows them seated: an earlier
			// join of theirs was stored though its answer was lost
			// (store.ErrUnconfirmed). Their seat, not a second one.
			return m, seat, nil
		}
		m.Seats = slices.Clone(m.Seats)
		free := slices.IndexFunc(m.Seats, store.Seat.Free)
		if free < 0 || m.Started {
			return m, -1, Refuse("every seat in this room is taken: you can watch it instead", "lobby.full")
		}
		m.Seats[free] = store.Seat{Player: p.ID, Name: seatName(m.Seats, free, p.Name)}
		if p.Guest {
			m.Seats[free].Word, m.Seats[free].From = newSeatWord(), fromDigest(m.Code, p.From)
		}
		return m, free, nil
	})
	if err != nil {
		return nil, err
	}
	r.env.Log.Info("seat taken", "code", r.code, "seat", c.Seat(), "player", p.Name)
	return c, nil
}

// sit stores the metadata pick gives, which seats p in seat, and connects
// p there as it is taken in: in between, the seat would look held by
// someone away since the server started, and the room's timer could hand
// it to a bot. On a conflict it catches up and picks again.
func (r writer) sit(ctx context.Context, p Player, pick func() (m store.Meta, seat int, err error)) (*Conn, error) {
	for attempt := 0; ; attempt++ {
		m, seat, err := pick()
		if err != nil {
			return nil, err
		}
		var c *Conn
		err = r.saveMeta(ctx, m, func(in changing) { c = in.connect(p, seat) })
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// reclaim connects p to the seat their key holds, taking it back from a
// bot that was standing in. A player simply coming back changes nothing
// stored, and waits for none of the room's changes.
func (r *Room) reclaim(ctx context.Context, p Player, seat int) (*Conn, error) {
	h := r.lock()
	m, change := reclaimed(h.meta, p, seat, r.env.Now())
	if !change {
		defer h.unlock()
		return h.connect(p, seat), nil
	}
	h.unlock()
	w := r.lockWrites()
	defer w.unlock()
	if m, change = reclaimed(w.meta, p, seat, r.env.Now()); !change { // changed meanwhile
		h := r.lock()
		defer h.unlock()
		return h.connect(p, seat), nil
	}
	var c *Conn
	err := w.saveMeta(ctx, m, func(in changing) {
		in.timer.forget(seat)
		c = in.connect(p, seat)
	})
	return c, err
}

// reclaimed is the room's metadata meta with p back in seat at now, from
// a bot or under a name of theirs it no longer shows; change is false
// when nothing changes.
func reclaimed(meta store.Meta, p Player, seat int, now time.Time) (m store.Meta, change bool) {
	name := seatName(meta.Seats, seat, p.Name)
	if meta.Seats[seat].Bot == "" && meta.Seats[seat].Name == name {
		return store.Meta{}, false
	}
	m = meta
	m.Seats = slices.Clone(m.Seats)
	if m.Seats[seat].Bot != "" {
		// Back from a bot, maybe mid-turn: the turn's clock starts again
		// for them.
		m.Seats[seat].Since = now.UTC()
	}
	m.Seats[seat].Bot, m.Seats[seat].Name = "", name
	return m, true
}

// reclaimByWord seats guest p in the seat word opens, bound from now on
// to p's identity of this connection, under the seat's name.
func (r *Room) reclaimByWord(ctx context.Context, p Player, word string) (*Conn, error) {
	w := r.lockWrites()
	defer w.unlock()
	c, err := w.sit(ctx, p, func() (store.Meta, int, error) {
		h := r.lock()
		seat := h.wordSeat(word, p)
		h.unlock()
		if seat < 0 {
			// Checked when the room was opened: someone else was quicker.
			return store.Meta{}, -1, ErrNoSeatForWord(r.code, ShortDuration(GraceOf(w.meta)))
		}
		m := w.meta
		m.Seats = append([]store.Seat(nil), m.Seats...)
		// The seat keeps the name the table knows: the guest is the same
		// person, whatever this connection's guest name.
		m.Seats[seat].Player = p.ID
		return m, seat, nil
	})
	if err != nil {
		return nil, err
	}
	r.env.Log.Info("seat taken back by its seat word", "code", r.code, "seat", c.Seat(), "player", p.Name)
	return c, nil
}

// wordSeat is the seat word opens for p, or -1: a guest's seat whose
// player is away for no longer than the grace period, sat down from p's
// address.
func (r held) wordSeat(word string, p Player) int {
	if !p.Guest || p.From == "" || word == "" {
		return -1
	}
	now := r.env.Now()
	for seat, s := range r.meta.Seats {
		if s.Word == "" || subtle.ConstantTimeCompare([]byte(s.Word), []byte(word)) != 1 {
			continue
		}
		if s.From != fromDigest(r.meta.Code, p.From) || s.Bot != "" || r.seen.present(seat) || now.Sub(r.awaySince(seat)) > GraceOf(r.meta) {
			return -1
		}
		return seat
	}
	return -1
}

// addBot seats bot in a free seat, for the host or the player standing
// in for an away host. On the seat of a person it is by's vote to hand it
// to the game's default bot.
func (r *Room) addBot(ctx context.Context, by Player, seat int, bot string) error {
	w := r.lockWrites()
	defer w.unlock()
	return w.addBot(ctx, by, seat, bot)
}

func (r writer) addBot(ctx context.Context, by Player, seat int, bot string) error {
	if seat < 0 || seat >= len(r.meta.Seats) {
		return noSeat(seat)
	}
	if s := r.meta.Seats[seat]; s.Player != "" && s.Bot == "" {
		_, err := r.vote(ctx, by, seat) // a person's seat goes to a bot by votes
		return err
	}
	if !r.meta.Seats[seat].Free() {
		return botThere(seat)
	}
	if !r.hostPowers(ctx, by) {
		return Refuse("only the room's host can seat a bot", "lobby.hostSeatsBots")
	}
	m := r.meta
	m.Seats = slices.Clone(m.Seats)
	m.Seats[seat] = store.Seat{Bot: bot, Name: BotName(bot, seat)}
	return r.saveMeta(ctx, m, nil)
}

// hostPowers reports whether p may do what the host does: p is the host,
// or stands in for an away host. The store is asked, outside the
// memory's lock, whether the host is here through another instance.
func (r writer) hostPowers(ctx context.Context, p Player) bool {
	if p.ID == "" {
		return false
	}
	if p.ID == r.meta.Host {
		return true
	}
	seat := r.meta.SeatOf(p.ID)
	if seat < 0 {
		return false
	}
	if err := r.readPresence(ctx); err != nil {
		r.env.Fault("seat presence", err, "code", r.code)
	}
	h := r.Room.lock()
	defer h.unlock()
	return h.votes().standIn(h.hostWatching()) == seat
}

func (r *Room) vote(ctx context.Context, by Player, seat int) (VoteResult, error) {
	w := r.lockWrites()
	defer w.unlock()
	return w.vote(ctx, by, seat)
}

func (r writer) vote(ctx context.Context, by Player, seat int) (VoteResult, error) {
	for attempt := 0; ; attempt++ {
		h := r.Room.lock()
		voter, err := h.votes().check(by, seat, h.table.title())
		h.unlock()
		if err != nil {
			return VoteResult{}, err
		}
		// Either may be at the table through another instance: ask.
		if err := r.readPresence(ctx); err != nil {
			r.env.Fault("seat presence", err, "code", r.code)
			name := r.meta.Seats[seat].Name
			return VoteResult{}, Refuse(fmt.Sprintf("cannot tell whether %s is still playing seat %d: try again in a moment", name, seat+1),
				"lobby.cannotTell", engine.Str("Name", name), engine.Num("Seat", seat+1))
		}
		h = r.Room.lock()
		m, res, err := h.votes().cast(voter, seat, r.env.Now())
		h.unlock()
		if err != nil {
			return VoteResult{}, err
		}
		err = r.saveMeta(ctx, m, nil)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue // caught up: judge the vote again
		}
		if err != nil {
			return VoteResult{}, err
		}
		if res.HandedOver {
			r.env.Log.Info("seat handed to a bot", "code", m.Code, "seat", seat, "bot", res.Bot, "by", "votes")
		}
		return res, nil
	}
}

// watch connects p as a spectator of the room, shown its invite if share
// (they came in with it, or hold a seat or host the room): a spectator who
// typed the invite sees only the code on the board, and could not come
// back without it.
func (r *Room) watch(p Player, share bool) *Conn {
	h := r.lock()
	defer h.unlock()
	return h.attach(&Conn{room: r, player: p, seat: engine.Spectator, updates: make(chan Update, 1), invited: share})
}

// connect adds a connection of p to seat.
func (r held) connect(p Player, seat int) *Conn {
	return r.attach(&Conn{room: r.Room, player: p, seat: seat, updates: make(chan Update, 1)})
}

// attach adds c to the room's connections.
func (r held) attach(c *Conn) *Conn {
	r.conns[c] = struct{}{}
	if r.seen.arrive(c.seat) {
		r.env.Claim(r.Room)
	}
	r.broadcast()
	return c
}

func (r *Room) disconnect(c *Conn) {
	h := r.lock()
	defer h.unlock()
	if _, ok := h.conns[c]; !ok {
		return
	}
	delete(h.conns, c)
	if h.seen.leave(c.seat, r.env.presenceNow()) {
		r.env.Claim(r)
	}
	h.broadcast()
}

// hostWatching reports whether one of the host's sessions is in the room
// here.
func (r held) hostWatching() bool {
	for c := range r.conns {
		if c.player.ID == r.meta.Host {
			return true
		}
	}
	return false
}

// rematch accepts, for p, a rematch of the room's finished game (see
// Lobby.Rematch).
func (r *Room) rematch(ctx context.Context, p Player) (RoomInfo, error) {
	created := "" // a room this call made, to remove if another offer won
	fresh := ""   // a code drawn again after the offer's was taken
	for attempt := 0; ; attempt++ {
		h := r.lock()
		m := h.meta
		off, done, err := r.env.rematchOffer(m, p, fresh)
		var info RoomInfo
		if done {
			info = h.info()
		}
		h.unlock()
		switch {
		case err != nil:
			return RoomInfo{}, err
		case done:
			r.env.dropRematch(ctx, created, m.Rematch.Code)
			return info, nil
		}
		if len(off.Accepted) == len(m.Seats) {
			err := r.env.createRematch(ctx, table{rules: r.game.Rules}, m, off)
			if errors.Is(err, errCodeTaken) && attempt < 5 {
				fresh = NewCode()
				continue
			}
			if err != nil {
				return RoomInfo{}, err
			}
			created, off.Started = off.Code, true
		}
		info, err = r.offerRematch(ctx, m, off)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		if err != nil {
			return RoomInfo{}, err
		}
		if off.Started {
			r.env.Log.Info("rematch", "code", m.Code, "new", off.Code)
		}
		return info, nil
	}
}

// offerRematch stores off with the game m, unless the room changed since
// m was read (ErrConflict: judge again).
func (r *Room) offerRematch(ctx context.Context, m store.Meta, off store.Rematch) (RoomInfo, error) {
	w := r.lockWrites()
	defer w.unlock()
	if w.meta.Version != m.Version {
		return RoomInfo{}, store.ErrConflict // changed while the room was made
	}
	m.Rematch = &off
	var info RoomInfo
	err := w.saveMeta(ctx, m, func(in changing) { info = in.info() })
	return info, err
}
