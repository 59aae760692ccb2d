package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

var errSpectator = errors.New("spectators cannot play moves")

// botRetry is how long a bot waits after its move could not be stored.
const botRetry = time.Second

// errMovedOn is a bot's move that lost the race to the store: the game
// changed under it, and the bot thinks again rather than play a move
// chosen for a position that is gone.
var errMovedOn = errors.New("the game moved on")

// scheduleBot sets the room's one timer for its next piece of work: a bot
// move, after the configured pause when people are at the table so they
// can follow, at once when only bots remain; a seat's clock running out
// (clock.go); an away seat going to a bot (table.go). The caller holds
// r.mu; every change to the room comes through here (broadcast).
func (r *room) scheduleBot() {
	if r.thinking {
		return // botTurn schedules again when the bot has moved
	}
	now := r.l.cfg.Now()
	at, ok := r.nextWake(now)
	if !ok {
		r.stopTimer()
		return
	}
	if r.timerStop != nil && !r.timerAt.After(at) {
		return // already due as soon
	}
	r.stopTimer()
	r.timerGen++
	gen := r.timerGen
	r.timerAt = at
	r.timerStop = r.l.afterFunc(at.Sub(now), func() { r.botTurn(gen) })
}

// nextWake is when the room next has something to do.
func (r *room) nextWake(now time.Time) (at time.Time, ok bool) {
	take := func(t time.Time) {
		if !ok || t.Before(at) {
			at, ok = t, true
		}
	}
	if r.state == nil || r.meta.Over || r.botSeat(now) < 0 {
		r.botReady = time.Time{}
	} else {
		if r.botReady.IsZero() {
			delay := r.l.cfg.BotDelay
			if !slices.ContainsFunc(r.meta.Seats, func(s store.Seat) bool { return s.Bot == "" && s.Player != "" }) {
				delay = 0
			}
			if r.notice != "" {
				delay = max(delay, botRetry)
			}
			r.botReady = now.Add(delay)
		}
		take(r.botReady)
	}
	if d, has := r.nextDeadline(now); has {
		take(d) // to show everyone the seat ran out; its bot moves after the pause
	}
	if h, seat := r.nextHandover(); seat >= 0 {
		take(later(h, r.handoverRetry))
	}
	return at, ok
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// stopTimer cancels the pending wake-up. One that fired already and waits
// for the lock finds its generation stale and does nothing. The caller
// holds r.mu.
func (r *room) stopTimer() {
	if r.timerStop != nil {
		r.timerStop()
		r.timerStop = nil
	}
	r.timerGen++
}

// afterFunc runs f after d on the lobby's timers.
func (l *Lobby) afterFunc(d time.Duration, f func()) (stop func() bool) {
	if l.cfg.AfterFunc != nil {
		return l.cfg.AfterFunc(d, f)
	}
	return time.AfterFunc(d, f).Stop
}

// botSeat returns the first acting seat a bot plays now, or -1: a bot's
// seat, or a person's whose time for the turn ran out.
func (r *room) botSeat(now time.Time) int {
	for _, seat := range r.status.Acting {
		if r.botPlays(seat, now) {
			return seat
		}
	}
	return -1
}

// botPlays reports whether a bot plays seat's moves now.
func (r *room) botPlays(seat int, now time.Time) bool {
	return seat >= 0 && seat < len(r.meta.Seats) && (r.meta.Seats[seat].Bot != "" || r.outOfTime(seat, now))
}

// botTurn is the room's timer going off: it hands over an away seat whose
// time has come, then plays a bot's move. The bot thinks outside the
// room's lock, on the view taken under it, so players' moves in the room
// never wait for its thinking; the move is then committed like any other,
// unless the game moved on meanwhile, when the bot thinks again.
func (r *room) botTurn(gen int) {
	r.mu.Lock()
	if gen != r.timerGen || r.thinking {
		r.mu.Unlock()
		return
	}
	r.timerStop = nil // gone off: nothing pending
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	r.handOverDue(ctx)
	cancel()
	now := r.l.cfg.Now()
	seat := r.botSeat(now)
	switch {
	case seat < 0 || r.meta.Over || !r.botReady.IsZero() && now.Before(r.botReady):
		r.scheduleBot()
		r.mu.Unlock()
		return
	case r.botReady.IsZero():
		// A seat's time just ran out: everyone sees so now, and its bot
		// moves after the usual pause.
		r.broadcast()
		r.mu.Unlock()
		return
	}
	r.botReady = time.Time{} // this move is made; the next waits its own pause
	play, err := r.bot(seat)
	var view json.RawMessage
	if err == nil {
		view, err = r.rules.View(r.state, seat)
	}
	moves, code := r.moves, r.meta.Code
	r.stopTimer() // while the bot thinks nothing else is due: it schedules again after
	r.thinking = true
	r.mu.Unlock()

	var move json.RawMessage
	if err == nil {
		start := time.Now()
		move, err = play(view)
		r.l.observer().BotThought(time.Since(start))
		r.l.cfg.Logger.Debug("bot move", "code", code, "seat", seat, "think", time.Since(start))
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	r.thinking = false
	if err == nil {
		err = errMovedOn
		if r.moves == moves && r.botPlays(seat, r.l.cfg.Now()) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err = r.commitOnce(ctx, seat, move)
			cancel()
		}
		if err != nil && (r.moves != moves || !r.botPlays(seat, r.l.cfg.Now())) {
			// The game moved on while the bot thought (a player's move,
			// a player taking the seat back, another instance's bot):
			// whatever the bot chose was for a position that is gone.
			r.scheduleBot()
			return
		}
	}
	if err != nil {
		r.l.cfg.Logger.Warn("bot move", "code", r.meta.Code, "seat", seat, "err", err)
		if r.notice == "" {
			r.notice = "a bot could not move: " + err.Error()
		}
	}
	r.scheduleBot()
}

// bot returns the player for a seat a bot plays: the seat's bot, or the
// game's default bot for a person out of time. It is made once per seat
// and bot, seeded from the room so a bot game replays the same way.
func (r *room) bot(seat int) (engine.Bot, error) {
	name := r.meta.Seats[seat].Bot
	if name == "" {
		name = r.game.DefaultBot()
	}
	if b, ok := r.bots[seat]; ok && b.name == name {
		return b.play, nil
	}
	if err := checkBot(r.game, name); err != nil {
		return nil, err
	}
	f, err := r.game.Bots.New(name, r.meta.Seed+uint64(seat)+1)
	if err != nil {
		return nil, err
	}
	if r.bots == nil {
		r.bots = map[int]seatBot{}
	}
	r.bots[seat] = seatBot{name, f}
	return f, nil
}

// seatBot is the bot made for a seat.
type seatBot struct {
	name string
	play engine.Bot
}
