package mem

import (
	"context"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// The lists are a store.MemLists, changed under mu with the rooms they
// list, so they are exact.

// metas is the metadata of the rooms codes, in order, skipping those gone.
func (s *Store) metas(codes []string) ([]store.Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]store.Meta, 0, len(codes))
	for _, code := range codes {
		if r, ok := s.rooms[code]; ok {
			out = append(out, r.meta)
		}
	}
	return out, nil
}

// OpenSeats implements store.Lists.
func (s *Store) OpenSeats(ctx context.Context, limit int) ([]store.Meta, error) {
	return s.lists.OpenSeats(ctx, limit)
}

// InPlay implements store.Lists.
func (s *Store) InPlay(ctx context.Context, limit int) ([]store.Meta, error) {
	return s.lists.InPlay(ctx, limit)
}

// PlayerRooms implements store.Lists.
func (s *Store) PlayerRooms(ctx context.Context, player string, limit int) ([]store.Meta, error) {
	return s.lists.PlayerRooms(ctx, player, limit)
}

// RoomCounts implements store.Lists.
func (s *Store) RoomCounts(ctx context.Context, host, addr string, since time.Time, limit int) (store.RoomCounts, error) {
	return s.lists.RoomCounts(ctx, host, addr, since, limit)
}

// Due implements store.Lists.
func (s *Store) Due(ctx context.Context, before time.Time, limit int) ([]store.Meta, error) {
	return s.lists.Due(ctx, before, limit)
}
