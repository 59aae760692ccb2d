package lobby

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A profile is made on a key's first need (ensureProfile), but a name
// chosen or a link code asked for is a need too, and neither is playing:
// a profile that holds no seat in any room and no rating, made longer ago
// than Config.ProfileExpire, is forgotten with its keys and its name, so
// names reserved by nobody who plays come free again. Profiles made
// before profiles were lazy, one for every key that ever connected, go
// the same way.

// profileSweep is how often the lobby looks for profiles to expire: it
// reads every profile and every room.
const profileSweep = time.Hour

// expireProfilesEvery runs ExpireProfiles once a profileSweep; the lobby's
// loop calls it every minute.
func (l *Lobby) expireProfilesEvery(ctx context.Context) {
	now := l.cfg.Now()
	if now.Sub(l.profilesSwept) < profileSweep {
		return
	}
	l.profilesSwept = now
	l.ExpireProfiles(ctx)
}

// ExpireProfiles forgets the profiles that never played (above).
func (l *Lobby) ExpireProfiles(ctx context.Context) {
	ps, ok := l.profiles()
	if !ok || l.cfg.ProfileExpire <= 0 {
		return
	}
	all, err := ps.Profiles(ctx)
	if err != nil {
		l.storeFault("list profiles to expire", err)
		return
	}
	cutoff := l.cfg.Now().Add(-l.cfg.ProfileExpire)
	var old []Profile
	for _, p := range all {
		if p.Created.Before(cutoff) {
			old = append(old, p)
		}
	}
	if len(old) == 0 {
		return
	}
	played, err := l.played(ctx)
	if err != nil {
		l.storeFault("find who played, to expire profiles", err)
		return
	}
	for _, p := range old {
		if played[p.ID] {
			continue
		}
		if err := ps.DropProfile(ctx, p.ID); err != nil {
			l.storeFault("expire profile", err, "player", p.ID)
			continue
		}
		l.cfg.Logger.Info("profile expired", "player", p.ID, "name", p.Name, "made", p.Created)
	}
}

// played is the IDs that hold a seat in a stored room, finished or not,
// or a rating in a game.
func (l *Lobby) played(ctx context.Context) (map[string]bool, error) {
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, m := range metas {
		for _, s := range m.Seats {
			if s.Player != "" {
				ids[s.Player] = true
			}
		}
	}
	if rs, ok := l.ratingStore(); ok {
		for _, g := range l.cfg.Games {
			board, err := rs.Leaderboard(ctx, g.Name())
			if err != nil {
				return nil, err
			}
			for id := range board {
				ids[id] = true
			}
		}
	}
	return ids, nil
}

// dropProfile forgets profile id, the keys that play as it and its name.
func dropProfile(s profileSet, id string) {
	p, ok := s.get(id)
	if !ok {
		return
	}
	for _, k := range p.Keys {
		if owner, ok := s.keyOf(k); ok && owner == id {
			s.dropKey(k)
		}
	}
	if holder, ok := s.nameOf(nameKey(p.Name)); ok && holder == id {
		s.dropName(nameKey(p.Name))
	}
	s.drop(id)
}

// Profiles implements ProfileStore.
func (m *memProfiles) Profiles(context.Context) ([]Profile, error) {
	defer m.lock().pmu.Unlock()
	out := make([]Profile, 0, len(m.profiles))
	for id := range m.profiles {
		p, _ := m.get(id)
		out = append(out, p)
	}
	return out, nil
}

// DropProfile implements ProfileStore.
func (m *memProfiles) DropProfile(_ context.Context, id string) error {
	defer m.lock().pmu.Unlock()
	dropProfile(m, id)
	return nil
}

// Profiles implements ProfileStore.
func (s *BoltStore) Profiles(context.Context) ([]Profile, error) {
	var out []Profile
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(profilesBucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			p, err := decodeProfile(string(k), v)
			if err != nil {
				return err
			}
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// DropProfile implements ProfileStore.
func (s *BoltStore) DropProfile(_ context.Context, id string) error {
	return s.changeProfiles(func(b *boltProfiles) error { dropProfile(b, id); return nil })
}

// Profiles implements ProfileStore. It reads the hash a page at a time,
// so Redis is never busy with all of it at once.
func (s *RedisStore) Profiles(ctx context.Context) ([]Profile, error) {
	var out []Profile
	iter := s.rdb.HScan(ctx, redisProfiles, 0, "", 500).Iterator()
	for iter.Next(ctx) {
		id := iter.Val()
		if !iter.Next(ctx) {
			break
		}
		p, err := decodeProfile(id, []byte(iter.Val()))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// DropProfile implements ProfileStore.
func (s *RedisStore) DropProfile(ctx context.Context, id string) error {
	return s.changeProfiles(ctx, func(r *redisProfileTx) error { dropProfile(r, id); return nil })
}
