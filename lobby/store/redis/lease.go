package redis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// leaseScript takes a free lease or renews this instance's own, as one
// step however many instances ask at once: the key holds the holder's
// origin and expires ttl after its last renewal. It answers 1 when this
// instance holds the lease.
var leaseScript = redis.NewScript(`
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`)

// releaseScript deletes the lease if this instance holds it.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`)

// Lease implements store.Leases. The lease is timed by Redis's clock, the
// same for every instance.
func (s *Store) Lease(ctx context.Context, name string, ttl time.Duration) (bool, error) {
	held, err := leaseScript.Run(ctx, s.rdb, []string{leaseKey(name)}, s.origin, max(ttl.Milliseconds(), 1)).Int()
	if err != nil {
		return false, fmt.Errorf("lease %s: %w", name, err)
	}
	return held == 1, nil
}

// Release implements store.Leases.
func (s *Store) Release(ctx context.Context, name string) error {
	if err := releaseScript.Run(ctx, s.rdb, []string{leaseKey(name)}, s.origin).Err(); err != nil {
		return fmt.Errorf("release lease %s: %w", name, err)
	}
	return nil
}
