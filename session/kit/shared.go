package kit

import "sync"

// Shared keeps drawings every screen of the process may reuse: ones that
// depend on their key alone, never on what one viewer may see and
// another may not. The four screens of a table draw the same marketplace
// after a move, and a card's text is the same on every board. It holds
// at most a set number; when full it starts again empty, which costs a
// few drawings again rather than keeping count of which is oldest.
type Shared[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]V
	max int
}

// NewShared makes a Shared that keeps at most max values.
func NewShared[K comparable, V any](max int) *Shared[K, V] {
	return &Shared[K, V]{max: max}
}

// Get returns the value kept under key, or makes it, keeps it and returns
// it. make runs without the lock held: two screens asking at once may
// both make it, and either result is kept.
func (s *Shared[K, V]) Get(key K, make func() V) V {
	s.mu.Lock()
	v, ok := s.m[key]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = make()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || len(s.m) >= s.max {
		s.m = map[K]V{}
	}
	s.m[key] = v
	return v
}
