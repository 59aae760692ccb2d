package mem

import "github.com/smokestack/smokestack/lobby/store"

// The lists are a store.MemLists, changed under mu with the rooms they
// list, so they are exact. The Store's embedded store.Lists is it,
// answering the reads.

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
