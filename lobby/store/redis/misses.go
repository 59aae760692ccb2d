package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

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

// Miss implements store.Misses. The window is timed by Redis's clock, the
// same for every instance; now only turns what is left of it into a time.
func (s *Store) Miss(ctx context.Context, name string, now time.Time, window time.Duration) (int, time.Time, error) {
	res, err := missScript.Run(ctx, s.rdb, []string{redisMissKey(name)}, window.Milliseconds()).Int64Slice()
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("count a miss: %w", err)
	}
	if len(res) != 2 {
		return 0, time.Time{}, fmt.Errorf("count a miss: the script answered %v", res)
	}
	return int(res[0]), now.Add(time.Duration(res[1]) * time.Millisecond), nil
}

// Misses implements store.Misses.
func (s *Store) Misses(ctx context.Context, name string, now time.Time) (int, time.Time, error) {
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

// Turn implements store.Misses. The turns are timed by Redis's clock; now
// is not needed.
func (s *Store) Turn(ctx context.Context, name string, _ time.Time, wait time.Duration) (time.Duration, error) {
	ms, err := turnScript.Run(ctx, s.rdb, []string{redisTurnKey(name)}, wait.Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("reserve a miss's turn: %w", err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}
