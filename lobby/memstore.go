package lobby

import (
	"context"
	"slices"
	"sync"

	"github.com/smokestack/smokestack/engine"
)

// MemStore keeps rooms in memory: for tests and throwaway servers.
type MemStore struct {
	mu    sync.Mutex
	rooms map[string]*memRoom
	bans  map[string]Ban        // by target; see bans.go
	chat  map[string][]ChatLine // by room code, the lobby's under ""; see chat.go
	missCounts
	memProfiles // profiles.go
	memRatings  // ratings.go
}

type memRoom struct {
	meta  Meta
	moves []Record
}

// NewMemStore returns an empty in-memory store.
func NewMemStore() *MemStore { return &MemStore{rooms: map[string]*memRoom{}} }

// Create implements Store.
func (s *MemStore) Create(_ context.Context, m Meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.rooms[m.Code]; ok {
		return ErrExists
	}
	s.rooms[m.Code] = &memRoom{meta: m}
	return nil
}

// Load implements Store.
func (s *MemStore) Load(_ context.Context, code string, from int) (Meta, []Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms[code]
	if !ok {
		return Meta{}, nil, ErrNotFound
	}
	m := r.meta
	m.Moves = len(r.moves)
	if from >= len(r.moves) {
		return m, nil, nil
	}
	return m, slices.Clone(r.moves[max(0, from):]), nil
}

// Append implements Store.
func (s *MemStore) Append(_ context.Context, code string, at int, rec Record, st engine.Status) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms[code]
	if !ok {
		return ErrNotFound
	}
	if len(r.moves) != at {
		return ErrConflict
	}
	r.moves = append(r.moves, rec)
	r.meta.Updated = rec.At
	r.meta.setStatus(st)
	return nil
}

// SaveMeta implements Store.
func (s *MemStore) SaveMeta(_ context.Context, m Meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms[m.Code]
	if !ok {
		return ErrNotFound
	}
	if r.meta.Version != m.Version-1 {
		return ErrConflict
	}
	r.meta = m
	return nil
}

// List implements Store.
func (s *MemStore) List(context.Context) ([]Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Meta, 0, len(s.rooms))
	for _, r := range s.rooms {
		out = append(out, r.meta)
	}
	return out, nil
}

// Delete implements Store.
func (s *MemStore) Delete(_ context.Context, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.rooms, code)
	return nil
}

// Close implements Store.
func (s *MemStore) Close() error { return nil }
