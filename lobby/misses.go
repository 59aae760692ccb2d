package lobby

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
)

// missCounts counts failed lookups in this process's memory: the lobby's
// own count when no other instance shares its store (with one, the
// store's Cluster counts them). They matter for an hour, not across
// restarts. It is a store.Misses.
type missCounts struct {
	mu    sync.Mutex
	names map[string]missWindow
	swept time.Time
}

type missWindow struct {
	n    int
	ends time.Time
	next time.Time // when the last miss reserved is answered (Turn)
}

// Miss implements store.Misses.
func (c *missCounts) Miss(_ context.Context, name string, now time.Time, window time.Duration) (int, time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]missWindow{}
	}
	if now.Sub(c.swept) >= time.Minute {
		// Once a minute, forget ended windows: the map holds only the
		// names that missed lately.
		c.swept = now
		maps.DeleteFunc(c.names, func(_ string, w missWindow) bool { return !now.Before(room.Later(w.ends, w.next)) })
	}
	w := c.names[name]
	if !now.Before(w.ends) {
		w = missWindow{ends: now.Add(window), next: w.next}
	}
	w.n++
	c.names[name] = w
	return w.n, w.ends, nil
}

// Misses implements store.Misses.
func (c *missCounts) Misses(_ context.Context, name string, now time.Time) (int, time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.names[name]
	if !now.Before(w.ends) {
		return 0, time.Time{}, nil
	}
	return w.n, w.ends, nil
}

// Turn implements store.Misses.
func (c *missCounts) Turn(_ context.Context, name string, now time.Time, wait time.Duration) (time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]missWindow{}
	}
	w := c.names[name]
	w.next = room.Later(w.next, now).Add(wait)
	c.names[name] = w
	return w.next.Sub(now), nil
}
