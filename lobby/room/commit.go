package room

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Every change to a room is stored before anyone sees it, one change at a
// time (a writer), with the store called outside the room's memory lock
// (held): its sessions, its presence and its chat never wait for the
// store, only its next change does.

// ErrNotPlayed is what a player sees when the store refused a move: an
// ErrUnavailable that says the move is not in the game.
var ErrNotPlayed = &notPlayedError{}

type notPlayedError struct{}

func (*notPlayedError) Error() string {
	return "the game service is unavailable right now: nothing was played, try again in a moment"
}

func (*notPlayedError) Unwrap() error { return ErrUnavailable }

// move validates and commits one move for seat. The move is durable in the
// store before the new state is shown to anyone.
func (r *Room) move(ctx context.Context, seat int, mv json.RawMessage) error {
	w := r.lockWrites()
	defer w.unlock()
	h := r.lock()
	late := h.outOfTime(seat, r.env.Now())
	h.unlock()
	if late {
		return Refuse("your time for this turn ran out: the bot plays it, and you play again from your next turn", "lobby.timeOut")
	}
	return w.commit(ctx, seat, mv, "", 5)
}

// commitOnce commits a bot's move, or catches up and returns errMovedOn
// if another move was stored first: the bot thinks again. standIn names
// the bot when it plays for the seat's person (store.Record.Bot).
func (r writer) commitOnce(ctx context.Context, seat int, mv json.RawMessage, standIn string) error {
	return r.commit(ctx, seat, mv, standIn, 0)
}

// commit applies and stores mv for seat. On a conflict it catches up and
// judges mv again against the new state, up to retries times. standIn is
// the bot playing for the seat's person, if one is. The move is judged
// on a copy of the table and stored outside the memory's lock, and the
// room takes it in under it after.
func (r writer) commit(ctx context.Context, seat int, mv json.RawMessage, standIn string, retries int) error {
	for attempt := 0; ; attempt++ {
		if r.meta.Over {
			return errGameOver
		}
		if r.table.state == nil {
			return Refuse("the game starts when every seat is taken", "lobby.notStarted")
		}
		next, events, err := r.table.play(seat, mv, true)
		if err != nil {
			return err
		}
		if st := &next.status; st.Over && st.Result == nil {
			st.Result = &engine.Result{} // a ruleset that did not say: over all the same
		}
		now := r.env.Now().UTC()
		began := time.Now()
		err = r.env.Writes.Append(ctx, r.code, r.table.moves, store.Record{Seat: seat, Move: mv, At: now, Bot: standIn}, next.status)
		if errors.Is(err, store.ErrConflict) && (attempt < retries || retries == 0) {
			// Someone else (another session's instance) played first: take
			// their moves and judge this one again against the new state,
			// or, for a bot, let it think again.
			if err := r.catchUp(ctx); err != nil {
				r.failed(err)
				return ErrNotPlayed
			}
			if retries == 0 {
				r.failed(nil)
				return errMovedOn
			}
			continue
		}
		if errors.Is(err, store.ErrUnconfirmed) {
			return r.unconfirmed(ctx, err)
		}
		if err != nil {
			r.failed(err)
			return ErrNotPlayed
		}
		stored := time.Now()
		r.env.Observer.MoveStored(stored.Sub(began))
		c := r.lock()
		listed := c.played(next, seat, standIn != "", events, now, stored)
		c.unlock()
		if listed {
			r.env.Listed()
		}
		return nil
	}
}

// failed shows the room's sessions that the store failed (err), or only
// the room as it is now (nil).
func (r *Room) failed(err error) {
	h := r.lock()
	defer h.unlock()
	if err != nil {
		h.setNotice(err)
	}
	h.broadcast()
}

// played takes in seat's move, stored at at (the game's clock) and at
// stored (this process's): the table after it and its events, played by
// a bot for the seat's person when byBot. It reports whether room lists
// show something new: they show the round and who acts, so they are told
// when those change, not on every move of a phase everyone plays at once.
func (r changing) played(next table, seat int, byBot bool, events []engine.Event, at, stored time.Time) (listed bool) {
	st := next.status
	r.notice = ""
	r.table = next
	r.meta.Updated = at
	r.clock.note(st, at)
	listed = st.Round != r.meta.Round || !slices.Equal(st.Acting, r.meta.Acting) || st.Result != nil
	r.meta.SetStatus(st)
	r.log.record(next.moves-1, seat, byBot, events)
	r.broadcastMove(seat, stored)
	return listed
}

// saveMeta stores m as the next metadata version, starting the game when
// the last seat was just taken, and takes it in; then, if not nil, runs
// as m is taken in, before anyone sees the room again. The store is
// written outside the memory's lock.
func (r writer) saveMeta(ctx context.Context, m store.Meta, then func(changing)) error {
	if m.Full() && !m.Started {
		// The game starts: its first round and who acts first are stored
		// with the seats, for room lists to show before the first move.
		st, err := r.table.opening(&m)
		if err != nil {
			return err
		}
		m.SetStatus(st)
	}
	m.Version = r.meta.Version + 1
	m.Updated = r.env.Now().UTC()
	if m.Full() && !m.Started {
		m.Started, m.StartedAt = true, m.Updated
	}
	err := r.env.Writes.SaveMeta(ctx, m)
	if errors.Is(err, store.ErrConflict) {
		if cerr := r.catchUp(ctx); cerr != nil {
			return r.env.Unavailable("room catch up", cerr, "code", m.Code)
		}
		return err
	}
	if err != nil {
		return r.env.Unavailable("save room", err, "code", m.Code)
	}
	c := r.lock()
	err = c.tookMeta(m)
	if err == nil && then != nil {
		then(c)
	}
	c.unlock()
	if err == nil {
		r.env.Listed()
	}
	return err
}

// tookMeta takes in the stored metadata m.
func (r changing) tookMeta(m store.Meta) error {
	started := m.Started && !r.meta.Started
	r.meta = m
	if started {
		if err := r.rebuild(m, nil); err != nil {
			return err
		}
		r.env.Log.Info("game started", "code", m.Code, "seats", len(m.Seats))
	}
	r.broadcast()
	return nil
}

// end stops the game for good, for its host (by) or, with by nil, on an
// operator's word; why is what its players are shown.
func (r *Room) end(ctx context.Context, by *Player, why string) error {
	w := r.lockWrites()
	defer w.unlock()
	return w.end(ctx, by, why)
}

func (r writer) end(ctx context.Context, by *Player, why string) error {
	if by != nil && !r.hostPowers(ctx, *by) {
		return Refuse("only the room's host can end the game", "lobby.hostEnds")
	}
	if r.meta.Over {
		return Refuse("this game is already over", "lobby.alreadyOver")
	}
	m := r.meta
	m.Over, m.Ended = true, why
	if by != nil {
		m.Acting = nil
	} else {
		r.env.Log.Info("game ended by an operator", "code", m.Code)
	}
	return r.saveMeta(ctx, m, nil)
}

// handOverDue hands to a bot a seat whose time has come, from the room's
// timer. Every instance with the room does it at the same moment; the
// compare-and-set lets one win, and the others catch up.
func (r writer) handOverDue(ctx context.Context) {
	h := r.Room.lock()
	v := h.votes()
	at, seat := v.next(len(h.conns) > 0)
	now := r.env.Now()
	due := seat >= 0 && !now.Before(at) && !now.Before(h.timer.handoverRetry)
	var m store.Meta
	if due {
		m = v.handedOver(h.meta, seat)
	}
	h.unlock()
	if !due {
		return
	}
	err := r.saveMeta(ctx, m, nil)
	switch {
	case errors.Is(err, store.ErrConflict):
		r.failed(nil) // caught up: a bot may be there already
	case err != nil:
		h := r.Room.lock()
		h.timer.handoverRetry = now.Add(botRetry)
		h.unlock()
		r.env.Fault("hand a seat to a bot", err, "code", r.code, "seat", seat)
	default:
		r.env.Log.Info("seat handed to a bot", "code", r.code, "seat", seat, "bot", r.game.DefaultBot(), "by", "time")
	}
}

// botMove is what a bot thinks about outside the room's locks: the seat
// it plays, the position's number and its view.
type botMove struct {
	seat, moves int
	standIn     string // the bot's name when it plays for the seat's person
	play        engine.Bot
	view        json.RawMessage
	err         error
}

// botTurn is the room's timer going off: it hands over an away seat whose
// time has come, then plays a bot's move. The bot thinks outside the
// room's locks, on the view taken under them, so players' moves in the
// room never wait for its thinking; the move is then committed like any
// other, unless the game moved on meanwhile, when the bot thinks again.
func (r *Room) botTurn(gen int) {
	b, ok := r.botToMove(gen)
	if !ok {
		return
	}
	var move json.RawMessage
	if b.err == nil {
		start := time.Now()
		move, b.err = b.play(b.view)
		r.env.Observer.BotThought(time.Since(start))
		r.env.Log.Debug("bot move", "code", r.code, "seat", b.seat, "think", time.Since(start))
	}
	r.botMoved(b, move)
}

// botToMove does the timer's work up to a bot's thinking, and returns
// what the bot is to think about; ok is false when no bot moves now.
func (r *Room) botToMove(gen int) (b botMove, ok bool) {
	w := r.lockWrites()
	defer w.unlock()
	h := r.lock()
	ok = h.timer.fired(gen)
	h.unlock()
	if !ok {
		return b, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	w.handOverDue(ctx)
	cancel()
	return r.lock().nextBotMove()
}

// nextBotMove is what a bot is to think about now, if anything, as the
// memory's lock is let go.
func (r held) nextBotMove() (b botMove, ok bool) {
	defer r.unlock()
	now := r.env.Now()
	seat := r.botSeat(now)
	switch {
	case seat < 0 || r.meta.Over || !r.timer.ready.IsZero() && now.Before(r.timer.ready):
		r.scheduleBot()
		return b, false
	case r.timer.ready.IsZero():
		// A seat's time just ran out: everyone sees so now, and its bot
		// moves after the usual pause.
		r.broadcast()
		return b, false
	}
	r.timer.moved()
	b = botMove{seat: seat, moves: r.table.moves}
	b.play, b.err = r.bot(seat)
	if r.meta.Seats[seat].Player != "" {
		b.standIn = r.botName(seat)
	}
	if b.err == nil {
		b.view, b.err = r.table.view(seat)
	}
	r.timer.cancel() // while the bot thinks nothing else is due: it schedules again after
	r.timer.thinking = true
	return b, true
}

// botMoved commits the move a bot chose for b, or what went wrong.
func (r *Room) botMoved(b botMove, move json.RawMessage) {
	w := r.lockWrites()
	defer w.unlock()
	h := r.lock()
	h.timer.thinking = false
	same := h.table.moves == b.moves && h.botPlays(b.seat, r.env.Now())
	h.unlock()
	err := b.err
	if err == nil {
		err = errMovedOn
		if same {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err = w.commitOnce(ctx, b.seat, move, b.standIn)
			cancel()
		}
	}
	r.lock().tookBotMove(b, err)
}

// tookBotMove takes in how the bot's move b went (err), and lets the
// memory's lock go.
func (r held) tookBotMove(b botMove, err error) {
	defer r.unlock()
	if b.err == nil && err != nil && (r.table.moves != b.moves || !r.botPlays(b.seat, r.env.Now())) {
		// The game moved on while the bot thought (a player's move,
		// a player taking the seat back, another instance's bot):
		// whatever the bot chose was for a position that is gone.
		r.scheduleBot()
		return
	}
	if err != nil {
		r.env.Log.Warn("bot move", "code", r.code, "seat", b.seat, "err", err)
		if r.notice == "" {
			r.notice = NoticeBotFailed + err.Error()
		}
	}
	r.scheduleBot()
}

// bot returns the player for a seat a bot plays: the seat's bot, or the
// game's default bot for a person out of time.
func (r held) bot(seat int) (engine.Bot, error) {
	return r.timer.player(r.game, seat, r.botName(seat), r.meta.Seed)
}

// BotName names the bot that plays seat.
func (r held) botName(seat int) string {
	if name := r.meta.Seats[seat].Bot; name != "" {
		return name
	}
	return r.game.DefaultBot()
}
