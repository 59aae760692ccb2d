package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// forgetBanScript removes a lapsed ban unless it was replaced meanwhile.
var forgetBanScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1`)

// Ban implements store.Bans.
func (s *Store) Ban(ctx context.Context, b store.Ban) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if err := s.rdb.HSet(ctx, redisBans, b.Target, data).Err(); err != nil {
		return fmt.Errorf("ban %s: %w", b.Target, err)
	}
	return nil
}

// Unban implements store.Bans.
func (s *Store) Unban(ctx context.Context, target string) (bool, error) {
	n, err := s.rdb.HDel(ctx, redisBans, target).Result()
	if err != nil {
		return false, fmt.Errorf("unban %s: %w", target, err)
	}
	return n > 0, nil
}

// Bans implements store.Bans. Lapsed bans are removed as they are found.
func (s *Store) Bans(ctx context.Context, now time.Time) ([]store.Ban, error) {
	all, err := s.rdb.HGetAll(ctx, redisBans).Result()
	if err != nil {
		return nil, fmt.Errorf("read bans: %w", err)
	}
	var out []store.Ban
	var errs []error
	for target, data := range all {
		var b store.Ban
		if err := json.Unmarshal([]byte(data), &b); err != nil {
			errs = append(errs, fmt.Errorf("ban %s: %w", target, err))
			continue
		}
		if !b.Active(now) {
			forgetBanScript.Run(ctx, s.rdb, []string{redisBans}, target, data)
			continue
		}
		out = append(out, b)
	}
	return store.InForce(out, now), errors.Join(errs...)
}
