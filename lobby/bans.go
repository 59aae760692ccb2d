package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"
)

// Ban keeps a key or an address off the server. Bans live in the room
// store, so every instance sharing the store honours them.
type Ban struct {
	// Target is a key fingerprint ("SHA256:…"), an address ("203.0.113.7")
	// or a range of addresses ("203.0.113.0/24").
	Target string `json:"target"`
	// Until is when the ban lapses; zero means when it is lifted.
	Until time.Time `json:"until,omitzero"`
	// By names the operator who set it, by name and key.
	By string    `json:"by"`
	At time.Time `json:"at"`
}

// Active reports whether the ban is in force at now.
func (b Ban) Active(now time.Time) bool { return b.Until.IsZero() || now.Before(b.Until) }

// Covers reports whether the ban is on the key with fingerprint key or on
// the address addr (either may be empty or invalid).
func (b Ban) Covers(key string, addr netip.Addr) bool {
	if key != "" && b.Target == key {
		return true
	}
	if !addr.IsValid() {
		return false
	}
	if p, err := netip.ParsePrefix(b.Target); err == nil {
		return p.Contains(addr.Unmap())
	}
	a, err := netip.ParseAddr(b.Target)
	return err == nil && a.Unmap() == addr.Unmap()
}

// BanTarget checks a target an operator typed and returns it in the form
// bans store: a key fingerprint as given, an address or range in canonical
// form.
func BanTarget(s string) (string, error) {
	switch {
	case strings.HasPrefix(s, "SHA256:") && len(s) > len("SHA256:"):
		return s, nil
	case strings.Contains(s, "/"):
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return "", fmt.Errorf("%q is not an address range: %w", s, err)
		}
		return p.Masked().String(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return "", fmt.Errorf("%q is neither a key fingerprint (SHA256:…) nor an address", s)
	}
	return a.Unmap().String(), nil
}

// BanStore keeps bans. Every Store here implements it.
type BanStore interface {
	// Ban stores b, replacing any ban on the same target.
	Ban(ctx context.Context, b Ban) error
	// Unban lifts the ban on target; false if there was none.
	Unban(ctx context.Context, target string) (bool, error)
	// Bans returns the bans in force at now, oldest first; lapsed ones
	// are forgotten.
	Bans(ctx context.Context, now time.Time) ([]Ban, error)
}

// Bans returns the lobby's store as a BanStore, if it is one.
func (l *Lobby) Bans() (BanStore, bool) {
	b, ok := l.cfg.Store.(BanStore)
	return b, ok
}

// inForce sorts bans oldest first and keeps those in force at now.
func inForce(bans []Ban, now time.Time) []Ban {
	bans = slices.DeleteFunc(bans, func(b Ban) bool { return !b.Active(now) })
	slices.SortFunc(bans, func(a, b Ban) int { return a.At.Compare(b.At) })
	return bans
}

// Ban implements BanStore.
func (s *MemStore) Ban(_ context.Context, b Ban) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bans == nil {
		s.bans = map[string]Ban{}
	}
	s.bans[b.Target] = b
	return nil
}

// Unban implements BanStore.
func (s *MemStore) Unban(_ context.Context, target string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.bans[target]
	delete(s.bans, target)
	return ok, nil
}

// Bans implements BanStore.
func (s *MemStore) Bans(_ context.Context, now time.Time) ([]Ban, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Ban
	for t, b := range s.bans {
		if !b.Active(now) {
			delete(s.bans, t)
			continue
		}
		out = append(out, b)
	}
	return inForce(out, now), nil
}

var bansBucket = []byte("bans") // target -> Ban JSON

// Ban implements BanStore.
func (s *BoltStore) Ban(_ context.Context, b Ban) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		bans, err := tx.CreateBucketIfNotExists(bansBucket)
		if err != nil {
			return err
		}
		return putJSON(bans, []byte(b.Target), b)
	})
}

// Unban implements BanStore.
func (s *BoltStore) Unban(_ context.Context, target string) (found bool, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		bans := tx.Bucket(bansBucket)
		if bans == nil || bans.Get([]byte(target)) == nil {
			return nil
		}
		found = true
		return bans.Delete([]byte(target))
	})
	return found, err
}

// Bans implements BanStore. Lapsed bans are skipped; they are removed by
// the next Ban or Unban of the same target.
func (s *BoltStore) Bans(_ context.Context, now time.Time) (out []Ban, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		bans := tx.Bucket(bansBucket)
		if bans == nil {
			return nil
		}
		return bans.ForEach(func(_, v []byte) error {
			var b Ban
			if err := json.Unmarshal(v, &b); err != nil {
				return err
			}
			out = append(out, b)
			return nil
		})
	})
	return inForce(out, now), err
}

const redisBans = redisPrefix + "bans" // hash: target -> Ban JSON

// forgetBanScript removes a lapsed ban unless it was replaced meanwhile.
var forgetBanScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1`)

// Ban implements BanStore.
func (s *RedisStore) Ban(ctx context.Context, b Ban) error {
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if err := s.rdb.HSet(ctx, redisBans, b.Target, data).Err(); err != nil {
		return fmt.Errorf("ban %s: %w", b.Target, err)
	}
	return nil
}

// Unban implements BanStore.
func (s *RedisStore) Unban(ctx context.Context, target string) (bool, error) {
	n, err := s.rdb.HDel(ctx, redisBans, target).Result()
	if err != nil {
		return false, fmt.Errorf("unban %s: %w", target, err)
	}
	return n > 0, nil
}

// Bans implements BanStore. Lapsed bans are removed as they are found.
func (s *RedisStore) Bans(ctx context.Context, now time.Time) ([]Ban, error) {
	all, err := s.rdb.HGetAll(ctx, redisBans).Result()
	if err != nil {
		return nil, fmt.Errorf("read bans: %w", err)
	}
	var out []Ban
	var errs []error
	for target, data := range all {
		var b Ban
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
	return inForce(out, now), errors.Join(errs...)
}
