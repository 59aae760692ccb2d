package mem

import (
	"context"
	"slices"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// Alive implements store.Uptime.
func (s *Store) Alive(_ context.Context, now time.Time, stale time.Duration) ([]store.Downtime, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.alive.Note(now, stale)
	return slices.Clone(s.alive.Down), nil
}
