package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Linking puts another key on a profile: a one-time link code, kept for
// a short while (PutLinkCode, TakeLinkCode), names the profile, and
// LinkKey moves the key over from the profile it played as.

// link is a link code's profile and expiry as the store keeps them.
type link struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires"`
}

// LinkKey implements store.Profiles: the profile lists the key, the key
// points at it, then the profile it played as lets it go, and is dropped
// once it has no key left.
func (s *Store) LinkKey(ctx context.Context, key, id string) error {
	from, err := s.rdb.Get(ctx, keyKey(key)).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("read key: %w", err)
	}
	_, _, err = s.changeProfile(ctx, id, func(p *store.Profile) error {
		if !slices.Contains(p.Keys, key) {
			p.Keys = append(p.Keys, key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, keyKey(key), id, 0).Err(); err != nil {
		return fmt.Errorf("link key: %w", err)
	}
	if from == "" || from == id {
		return nil
	}
	_, left, err := s.changeProfile(ctx, from, func(p *store.Profile) error {
		p.Keys = slices.DeleteFunc(p.Keys, func(k string) bool { return k == key })
		return nil
	})
	if errors.Is(err, store.ErrNoProfile) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(left.Keys) == 0 {
		return s.DropProfile(ctx, from)
	}
	return nil
}

// PutLinkCode implements store.Profiles. The code's key holds its expiry
// and its profile, and Redis forgets it once it lapses.
func (s *Store) PutLinkCode(ctx context.Context, code, id string, now, expires time.Time) error {
	life := expires.Sub(now)
	if life <= 0 {
		return nil // lapsed already: nothing to keep
	}
	data, err := json.Marshal(link{ID: id, Expires: expires})
	if err != nil {
		return err
	}
	if err := s.rdb.Set(ctx, redisLinkKey(code), data, life).Err(); err != nil {
		return fmt.Errorf("keep a link code: %w", err)
	}
	return nil
}

// TakeLinkCode implements store.Profiles. GETDEL reads and forgets the code
// in one step, so of two instances taking it only one gets it.
func (s *Store) TakeLinkCode(ctx context.Context, code string, now time.Time) (string, error) {
	data, err := s.rdb.GetDel(ctx, redisLinkKey(code)).Bytes()
	if errors.Is(err, redis.Nil) {
		return "", store.ErrNoLinkCode
	}
	if err != nil {
		return "", fmt.Errorf("take a link code: %w", err)
	}
	var l link
	if err := json.Unmarshal(data, &l); err != nil {
		return "", fmt.Errorf("link code: %w", err)
	}
	if !now.Before(l.Expires) {
		return "", store.ErrNoLinkCode
	}
	return l.ID, nil
}
