package mem

import (
	"context"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// Ban implements store.Bans.
func (s *Store) Ban(_ context.Context, b store.Ban) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bans == nil {
		s.bans = map[string]store.Ban{}
	}
	s.bans[b.Target] = b
	return nil
}

// Unban implements store.Bans.
func (s *Store) Unban(_ context.Context, target string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.bans[target]
	delete(s.bans, target)
	return ok, nil
}

// Bans implements store.Bans.
func (s *Store) Bans(_ context.Context, now time.Time) ([]store.Ban, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Ban
	for t, b := range s.bans {
		if !b.Active(now) {
			delete(s.bans, t)
			continue
		}
		out = append(out, b)
	}
	return store.InForce(out, now), nil
}
