package chat

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Burst is how many messages a person may send at once before their
// pace per minute holds them back.
const Burst = 5

// Rates paces each person's messages, in the room chats and the lobby's
// together, on this instance. The zero Rates is ready to use.
type Rates struct {
	mu    sync.Mutex
	by    map[string]*allowance // by player ID
	swept time.Time
}

type allowance struct {
	lim  *rate.Limiter
	used time.Time
}

// Allow takes one message from the allowance of the person with ID id,
// who may send per messages a minute after a burst of 5, or reports that
// they are out of it. per 0 or less allows everything.
func (c *Rates) Allow(id string, per int) bool {
	if per <= 0 {
		return true
	}
	now := time.Now() // the limiter's own clock, not a test's clock
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[string]*allowance{}
	}
	if now.Sub(c.swept) > time.Minute {
		// An allowance unused for a while is full again: forget it.
		c.swept = now
		full := time.Duration(math.Ceil(float64(Burst)/float64(per)*60)) * time.Second
		for id, r := range c.by {
			if now.Sub(r.used) > full {
				delete(c.by, id)
			}
		}
	}
	r := c.by[id]
	if r == nil {
		r = &allowance{lim: rate.NewLimiter(rate.Limit(float64(per)/60), Burst)}
		c.by[id] = r
	}
	r.used = now
	return r.lim.AllowN(now, 1)
}
