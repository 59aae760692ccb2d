package lobby

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// MissCounter counts failed room lookups (lookups.go) by name: a player's
// key or an address. Counts live in windows: a name's first miss opens
// one, and its count goes back to zero when the window ends. Every Store
// here implements it: the memory and bbolt stores in this process, the
// Redis store in Redis, so that guesses spread over several instances are
// counted once.
type MissCounter interface {
	// Miss counts one miss by name at now, opening a window of length
	// window if name has none, and returns name's count in its window
	// and when the window ends.
	Miss(ctx context.Context, name string, now time.Time, window time.Duration) (n int, ends time.Time, err error)
	// Misses returns name's count in its window at now (0 when it has
	// none) and when that window ends.
	Misses(ctx context.Context, name string, now time.Time) (n int, ends time.Time, err error)
	// Turn reserves the time name's next miss is answered: wait after
	// the time reserved last, or after now if that is past. It returns
	// how long from now that is. Misses in parallel so wait in turn, on
	// every instance, rather than each waiting its own wait at once.
	Turn(ctx context.Context, name string, now time.Time, wait time.Duration) (time.Duration, error)
}

// missCounts is a MissCounter in this process's memory, for the stores of
// one instance.
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

// Miss implements MissCounter.
func (c *missCounts) Miss(_ context.Context, name string, now time.Time, window time.Duration) (int, time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]missWindow{}
	}
	c.sweep(now)
	w := c.names[name]
	if !now.Before(w.ends) {
		w = missWindow{ends: now.Add(window), next: w.next}
	}
	w.n++
	c.names[name] = w
	return w.n, w.ends, nil
}

// Misses implements MissCounter.
func (c *missCounts) Misses(_ context.Context, name string, now time.Time) (int, time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.names[name]
	if !now.Before(w.ends) {
		return 0, time.Time{}, nil
	}
	return w.n, w.ends, nil
}

// Turn implements MissCounter.
func (c *missCounts) Turn(_ context.Context, name string, now time.Time, wait time.Duration) (time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names = map[string]missWindow{}
	}
	w := c.names[name]
	w.next = later(w.next, now).Add(wait)
	c.names[name] = w
	return w.next.Sub(now), nil
}

// sweep forgets ended windows once a minute, so the map holds only the
// names that missed lately. The caller holds c.mu.
func (c *missCounts) sweep(now time.Time) {
	if now.Sub(c.swept) < time.Minute {
		return
	}
	c.swept = now
	for name, w := range c.names {
		if !now.Before(later(w.ends, w.next)) {
			delete(c.names, name)
		}
	}
}

func redisMissKey(name string) string { return redisPrefix + "misses:" + name }

func redisTurnKey(name string) string { return redisPrefix + "missturn:" + name }

// missScript counts a miss: the first opens the window (the key's expiry),
// the rest only count. It answers the count and the milliseconds left.
var missScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {n, left}`)

// Miss implements MissCounter. The window is timed by Redis's clock, the
// same for every instance; now only turns what is left of it into a time.
func (s *RedisStore) Miss(ctx context.Context, name string, now time.Time, window time.Duration) (int, time.Time, error) {
	res, err := missScript.Run(ctx, s.rdb, []string{redisMissKey(name)}, window.Milliseconds()).Int64Slice()
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("count a miss: %w", err)
	}
	if len(res) != 2 {
		return 0, time.Time{}, fmt.Errorf("count a miss: the script answered %v", res)
	}
	return int(res[0]), now.Add(time.Duration(res[1]) * time.Millisecond), nil
}

// Misses implements MissCounter.
func (s *RedisStore) Misses(ctx context.Context, name string, now time.Time) (int, time.Time, error) {
	pipe := s.rdb.Pipeline()
	n := pipe.Get(ctx, redisMissKey(name))
	left := pipe.PTTL(ctx, redisMissKey(name))
	_, err := pipe.Exec(ctx)
	switch {
	case errors.Is(err, redis.Nil):
		return 0, time.Time{}, nil
	case err != nil:
		return 0, time.Time{}, fmt.Errorf("read misses: %w", err)
	}
	count, err := n.Int()
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("read misses: %w", err)
	}
	return count, now.Add(left.Val()), nil
}

// turnScript reserves a miss's turn by Redis's clock, the same for every
// instance: the key holds the Unix millisecond the last reserved miss is
// answered, and lives until then. It answers the milliseconds from now.
var turnScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local turn = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now) + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%d', turn), 'PX', turn - now + 1)
return turn - now`)

// Turn implements MissCounter. The turns are timed by Redis's clock; now
// is not needed.
func (s *RedisStore) Turn(ctx context.Context, name string, _ time.Time, wait time.Duration) (time.Duration, error) {
	ms, err := turnScript.Run(ctx, s.rdb, []string{redisTurnKey(name)}, wait.Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("reserve a miss's turn: %w", err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}
