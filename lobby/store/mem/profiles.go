package mem

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// profiles are the profile tables, under a lock of their own; as a
// store.ProfileTx they are changed while it is held.
type profiles struct {
	mu    sync.Mutex
	byID  map[string]store.Profile
	keys  map[string]string // key -> profile ID
	names map[string]string // store.NameKey -> profile ID
	links map[string]link
}

type link struct {
	id      string
	expires time.Time
}

// lock takes the tables' lock and returns them, made on first use.
func (m *profiles) lock() *profiles {
	m.mu.Lock()
	if m.byID == nil {
		m.byID, m.keys, m.names, m.links = map[string]store.Profile{}, map[string]string{}, map[string]string{}, map[string]link{}
	}
	return m
}

func (m *profiles) Get(id string) (store.Profile, bool) {
	p, ok := m.byID[id]
	p.Keys = slices.Clone(p.Keys)
	return p, ok
}
func (m *profiles) Put(p store.Profile)               { m.byID[p.ID] = p }
func (m *profiles) Drop(id string)                    { delete(m.byID, id) }
func (m *profiles) KeyOf(key string) (string, bool)   { id, ok := m.keys[key]; return id, ok }
func (m *profiles) SetKey(key, id string)             { m.keys[key] = id }
func (m *profiles) DropKey(key string)                { delete(m.keys, key) }
func (m *profiles) NameOf(name string) (string, bool) { id, ok := m.names[name]; return id, ok }
func (m *profiles) SetName(name, id string)           { m.names[name] = id }
func (m *profiles) DropName(name string)              { delete(m.names, name) }

// KeyProfile implements store.Profiles.
func (s *Store) KeyProfile(_ context.Context, key string) (store.Profile, error) {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	id, ok := m.keys[key]
	if !ok {
		return store.Profile{}, store.ErrNoProfile
	}
	p, _ := m.Get(id)
	return p, nil
}

// Profile implements store.Profiles.
func (s *Store) Profile(_ context.Context, id string) (store.Profile, error) {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	if p, ok := m.Get(id); ok {
		return p, nil
	}
	return store.Profile{}, store.ErrNoProfile
}

// NamedProfile implements store.Profiles.
func (s *Store) NamedProfile(_ context.Context, name string) (store.Profile, error) {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	if p, ok := m.Get(m.names[store.NameKey(name)]); ok {
		return p, nil
	}
	return store.Profile{}, store.ErrNoProfile
}

// CreateProfile implements store.Profiles.
func (s *Store) CreateProfile(_ context.Context, p store.Profile) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	p.Keys = slices.Clone(p.Keys)
	return store.CreateProfile(m, p)
}

// Rename implements store.Profiles.
func (s *Store) Rename(_ context.Context, id, name string) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	return store.RenameProfile(m, id, name)
}

// SetLang implements store.Profiles.
func (s *Store) SetLang(_ context.Context, id, lang string) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	return store.SetProfileLang(m, id, lang)
}

// SetPlain implements store.Profiles.
func (s *Store) SetPlain(_ context.Context, id string, plain bool) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	return store.SetProfilePlain(m, id, plain)
}

// PutLinkCode implements store.Profiles.
func (s *Store) PutLinkCode(_ context.Context, code, id string, now, expires time.Time) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	for c, l := range m.links { // forget the lapsed ones as new ones come
		if !now.Before(l.expires) {
			delete(m.links, c)
		}
	}
	m.links[code] = link{id, expires}
	return nil
}

// TakeLinkCode implements store.Profiles.
func (s *Store) TakeLinkCode(_ context.Context, code string, now time.Time) (string, error) {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	l, ok := m.links[code]
	delete(m.links, code)
	if !ok || !now.Before(l.expires) {
		return "", store.ErrNoLinkCode
	}
	return l.id, nil
}

// LinkKey implements store.Profiles.
func (s *Store) LinkKey(_ context.Context, key, id string) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	return store.LinkKey(m, key, id)
}

// Profiles implements store.Profiles.
func (s *Store) Profiles(context.Context) ([]store.Profile, error) {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	out := make([]store.Profile, 0, len(m.byID))
	for id := range m.byID {
		p, _ := m.Get(id)
		out = append(out, p)
	}
	return out, nil
}

// DropProfile implements store.Profiles.
func (s *Store) DropProfile(_ context.Context, id string) error {
	m := s.profiles.lock()
	defer m.mu.Unlock()
	store.DropProfile(m, id)
	return nil
}
