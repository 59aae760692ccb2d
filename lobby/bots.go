package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
)

var errSpectator = errors.New("spectators cannot play moves")

// botRetry is how long a bot waits after its move could not be stored.
const botRetry = time.Second

// scheduleBot arranges for a bot whose seat may act to move, after the
// configured pause when people are at the table so they can follow, at once
// when only bots remain. The caller holds r.mu.
func (r *room) scheduleBot() {
	if r.botDue || r.state == nil || r.meta.Over || r.botSeat() < 0 {
		return
	}
	delay := r.l.cfg.BotDelay
	if !slices.ContainsFunc(r.meta.Seats, func(s Seat) bool { return s.Bot == "" && s.Player != "" }) {
		delay = 0
	}
	if r.notice != "" {
		delay = max(delay, botRetry)
	}
	r.botDue = true
	time.AfterFunc(delay, r.botTurn)
}

// botSeat returns the first seat played by a bot that may act now, or -1.
func (r *room) botSeat() int {
	for _, seat := range r.status.Acting {
		if seat < len(r.meta.Seats) && r.meta.Seats[seat].Bot != "" {
			return seat
		}
	}
	return -1
}

// botTurn plays a bot's move. The bot thinks outside the room's lock, on
// the view taken under it, so players' moves in the room never wait for
// its thinking; the move is then committed like any other, against the
// state as it is by then.
func (r *room) botTurn() {
	r.mu.Lock()
	seat := r.botSeat()
	if seat < 0 || r.meta.Over {
		r.botDue = false
		r.mu.Unlock()
		return
	}
	play, err := r.bot(seat)
	var view json.RawMessage
	if err == nil {
		view, err = r.rules.View(r.state, seat)
	}
	moves, code := r.moves, r.meta.Code
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
	r.botDue = false
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = r.commit(ctx, seat, move)
		cancel()
		if err != nil && (r.moves != moves || r.botSeat() != seat || r.meta.Seats[seat].Bot == "") {
			// The game moved on while the bot thought (a player's move, a
			// player taking the seat back): whatever the bot chose was for
			// a position that is gone. Think again if it is still its turn.
			r.scheduleBot()
			return
		}
	}
	if err != nil {
		r.l.cfg.Logger.Warn("bot move", "code", r.meta.Code, "seat", seat, "err", err)
		if r.notice == "" {
			r.notice = "a bot could not move: " + err.Error()
		}
		r.scheduleBot()
	}
}

// bot returns the player for a bot seat, made once per seat and seeded from
// the room so a bot game replays the same way.
func (r *room) bot(seat int) (engine.Bot, error) {
	if f, ok := r.bots[seat]; ok {
		return f, nil
	}
	name := r.meta.Seats[seat].Bot
	if err := checkBot(r.game, name); err != nil {
		return nil, err
	}
	f, err := r.game.Bots.New(name, r.meta.Seed+uint64(seat)+1)
	if err != nil {
		return nil, err
	}
	if r.bots == nil {
		r.bots = map[int]engine.Bot{}
	}
	r.bots[seat] = f
	return f, nil
}
