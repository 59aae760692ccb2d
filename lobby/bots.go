package lobby

import (
	"context"
	"errors"
	"slices"
	"time"
)

var errSpectator = errors.New("spectators cannot play moves")

// botRetry is how long a bot waits after its move could not be stored.
const botRetry = time.Second

// scheduleBot arranges for a bot whose seat may act to move, after the
// configured pause when people are at the table so they can follow, at once
// when only bots remain. The caller holds r.mu.
func (r *room) scheduleBot() {
	if r.botDue || r.state == nil || r.meta.Over || r.l.cfg.Bots == nil || r.botSeat() < 0 {
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

func (r *room) botTurn() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.botDue = false
	seat := r.botSeat()
	if seat < 0 || r.meta.Over {
		return
	}
	play, err := r.bot(seat)
	if err == nil {
		var view, move []byte
		if view, err = r.rules.View(r.state, seat); err == nil {
			began := time.Now()
			move, err = play(view)
			r.l.observer().BotThought(time.Since(began))
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				err = r.commit(ctx, seat, move)
				cancel()
			}
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
func (r *room) bot(seat int) (BotFunc, error) {
	if f, ok := r.bots[seat]; ok {
		return f, nil
	}
	f, err := r.l.cfg.Bots(r.meta.Game, r.meta.Seats[seat].Bot, r.meta.Seed+uint64(seat)+1)
	if err != nil {
		return nil, err
	}
	if r.bots == nil {
		r.bots = map[int]BotFunc{}
	}
	r.bots[seat] = f
	return f, nil
}
