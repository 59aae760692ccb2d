// Package mem is the store in memory: for tests and throwaway servers.
// It serves one instance alone, so it has no Cluster part.
package mem

import (
	"context"
	"slices"
	"sync"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Store keeps rooms, players, chat and bans in this process's memory.
type Store struct {
	mu    sync.Mutex
	rooms map[string]*room
	bans  map[string]store.Ban        // by target; see bans.go
	chat  map[string][]store.ChatLine // by room code, the lobby's under ""; see chat.go
	alive store.Alive                 // see uptime.go
	// profiles and ratings have locks of their own (profiles.go, ratings.go).
	profiles    profiles
	ratings     ratings
	lists       *store.MemLists // kept under mu with the rooms; see lists.go
	store.Lists                 // reads lists
}

var _ store.Store = (*Store)(nil)

type room struct {
	meta  store.Meta
	moves []store.Record
}

// New returns an empty in-memory store.
func New() *Store {
	s := &Store{rooms: map[string]*room{}}
	s.lists = store.NewMemLists(s.metas)
	s.Lists = s.lists
	return s
}

// Create implements store.Rooms.
func (s *Store) Create(_ context.Context, m store.Meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.rooms[m.Code]; ok {
		return store.ErrExists
	}
	s.rooms[m.Code] = &room{meta: m}
	s.lists.Put(m, true)
	return nil
}

// Load implements store.Rooms.
func (s *Store) Load(_ context.Context, code string, from int) (store.Meta, []store.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms[code]
	if !ok {
		return store.Meta{}, nil, store.ErrNotFound
	}
	m := r.meta
	m.Moves = len(r.moves)
	if from >= len(r.moves) {
		return m, nil, nil
	}
	return m, slices.Clone(r.moves[max(0, from):]), nil
}

// Append implements store.Rooms.
func (s *Store) Append(_ context.Context, code string, at int, rec store.Record, st engine.Status) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms[code]
	if !ok {
		return store.ErrNotFound
	}
	if len(r.moves) != at {
		return store.ErrConflict
	}
	r.moves = append(r.moves, rec)
	r.meta.Updated = rec.At
	r.meta.SetStatus(st)
	if st.Result != nil {
		s.lists.Put(r.meta, false) // the game is over
	}
	return nil
}

// SaveMeta implements store.Rooms.
func (s *Store) SaveMeta(_ context.Context, m store.Meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.rooms[m.Code]
	if !ok {
		return store.ErrNotFound
	}
	if r.meta.Version != m.Version-1 {
		return store.ErrConflict
	}
	r.meta = m
	s.lists.Put(m, false)
	return nil
}

// List implements store.Rooms.
func (s *Store) List(context.Context) ([]store.Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]store.Meta, 0, len(s.rooms))
	for _, r := range s.rooms {
		out = append(out, r.meta)
	}
	return out, nil
}

// Delete implements store.Rooms.
func (s *Store) Delete(_ context.Context, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.rooms, code)
	s.lists.Remove(code)
	return nil
}

// Ping implements store.Store: memory always answers.
func (s *Store) Ping(context.Context) error { return nil }

// Cluster implements store.Store: nil, as memory is this instance's own.
func (s *Store) Cluster() store.Cluster { return nil }

// Close implements store.Store.
func (s *Store) Close() error { return nil }
