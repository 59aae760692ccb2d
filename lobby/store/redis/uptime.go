package redis

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// aliveScript records an instance alive at ARGV[1] (Unix ms): when nobody
// was for longer than ARGV[2] ms, the gap since is a downtime
// "FROM_MS:TO_MS" at the end of KEYS[2], which keeps the newest ARGV[3].
// It returns the downtimes, oldest first. In one script, instances that
// start together record one downtime, not one each.
var aliveScript = redis.NewScript(`
local now = tonumber(ARGV[1])
local last = redis.call('GET', KEYS[1])
if last and now - tonumber(last) > tonumber(ARGV[2]) then
  redis.call('RPUSH', KEYS[2], last .. ':' .. ARGV[1])
  redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
end
if not last or now > tonumber(last) then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('LRANGE', KEYS[2], 0, -1)`)

// Alive implements store.Uptime.
func (s *Store) Alive(ctx context.Context, now time.Time, stale time.Duration) ([]store.Downtime, error) {
	raw, err := aliveScript.Run(ctx, s.rdb, []string{redisAliveLast, redisAliveDown},
		now.UnixMilli(), stale.Milliseconds(), store.MaxDowntimes).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("record uptime: %w", err)
	}
	down := make([]store.Downtime, 0, len(raw))
	for _, r := range raw {
		from, to, _ := strings.Cut(r, ":")
		f, err1 := strconv.ParseInt(from, 10, 64)
		t, err2 := strconv.ParseInt(to, 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("read downtime %q: not two times in ms", r)
		}
		down = append(down, store.Downtime{From: time.UnixMilli(f).UTC(), To: time.UnixMilli(t).UTC()})
	}
	return down, nil
}
