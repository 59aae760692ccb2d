package room

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/smokestack/smokestack/engine"
	"golang.org/x/time/rate"
)

// LimitError refuses something a player asked for because it goes past a
// limit. Its message is for the player; Reason names the limit for logs
// and metrics.
type LimitError struct {
	Reason string
	Msg    string
	// Words are Msg for the player's language (catalogue area lobby);
	// empty where only English says it.
	Words engine.Words
	// Final says the player is refused more than what they asked: the
	// server ends their connection.
	Final bool
}

func (e *LimitError) Error() string { return e.Msg }

// moveWait is the longest a move waits for its seat's allowance; a
// stream that would wait longer is refused move by move.
const moveWait = time.Second

// allowMove takes one move from the seat's allowance, waiting for it
// briefly: a script playing fast is slowed, a flood refused, and neither
// holds the room, whose lock is taken only after. The allowance is the
// seat's, not the session's: one key may hold its seat from several
// sessions at once, and together they get one seat's rate.
func (c *Conn) allowMove(ctx context.Context) error {
	per := c.room.env.MovesPerSecond
	if per <= 0 {
		return nil
	}
	r := c.room.moveRates.limiter(c.seat, per).Reserve()
	d := r.Delay()
	if d == 0 {
		return nil
	}
	if d > moveWait {
		r.Cancel()
		c.room.env.Observer.Refused("move_rate", c.player)
		return &LimitError{Reason: "move_rate", Msg: fmt.Sprintf("too many moves: at most %g a second; that one was not played", per),
			Words: engine.Say("lobby.moveRate", engine.Str("Rate", fmt.Sprintf("%g", per)))}
	}
	if err := Pause(ctx, d); err != nil {
		r.Cancel()
		return err
	}
	return nil
}

// Pause waits d, or less if ctx ends first, and then says why it ended.
func Pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// moveRates are the allowances of a room's seats' moves, made on first
// use. They have a lock of their own: pacing a move never waits for the
// room.
type moveRates struct {
	mu sync.Mutex
	by map[int]*rate.Limiter
}

// limiter is seat's allowance of per moves a second.
func (m *moveRates) limiter(seat int, per float64) *rate.Limiter {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil {
		m.by = map[int]*rate.Limiter{}
	}
	lim := m.by[seat]
	if lim == nil {
		lim = rate.NewLimiter(rate.Limit(per), max(1, int(2*per)))
		m.by[seat] = lim
	}
	return lim
}
