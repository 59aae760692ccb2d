package mem

import (
	"context"
	"strings"
	"sync"

	"github.com/smokestack/smokestack/lobby/store"
)

// ratings are the record tables, under a lock of their own; as a
// store.RatingTx they are changed while it is held.
type ratings struct {
	mu       sync.Mutex
	outcomes map[string]store.Outcome
	ratings  map[string]store.Rating     // store.RatingKey -> rating
	solos    map[string]store.SoloRecord // store.SoloKey -> record
}

// lock takes the tables' lock and returns them, made on first use.
func (m *ratings) lock() *ratings {
	m.mu.Lock()
	if m.outcomes == nil {
		m.outcomes, m.ratings, m.solos = map[string]store.Outcome{}, map[string]store.Rating{}, map[string]store.SoloRecord{}
	}
	return m
}

func (m *ratings) Outcome(code string) (store.Outcome, bool) { o, ok := m.outcomes[code]; return o, ok }
func (m *ratings) Rating(game, player string) (store.Rating, bool) {
	r, ok := m.ratings[store.RatingKey(game, player)]
	return r, ok
}
func (m *ratings) Solo(player, game, opponent string) (store.SoloRecord, bool) {
	r, ok := m.solos[store.SoloKey(player, game, opponent)]
	return r, ok
}
func (m *ratings) PutOutcome(o store.Outcome) { m.outcomes[o.Code] = o }
func (m *ratings) PutRating(game, player string, r store.Rating) {
	m.ratings[store.RatingKey(game, player)] = r
}
func (m *ratings) PutSolo(player string, r store.SoloRecord) {
	m.solos[store.SoloKey(player, r.Game, r.Opponent)] = r
}

// Ratings implements store.Ratings.
func (s *Store) Ratings(_ context.Context, game string, players []string) (map[string]store.Rating, error) {
	m := s.ratings.lock()
	defer m.mu.Unlock()
	out := map[string]store.Rating{}
	for _, p := range players {
		if r, ok := m.Rating(game, p); ok {
			out[p] = r
		}
	}
	return out, nil
}

// Record implements store.Ratings.
func (s *Store) Record(_ context.Context, o store.Outcome) (store.Outcome, error) {
	m := s.ratings.lock()
	defer m.mu.Unlock()
	return store.RecordOutcome(m, o)
}

// Outcome implements store.Ratings.
func (s *Store) Outcome(_ context.Context, code string) (store.Outcome, error) {
	m := s.ratings.lock()
	defer m.mu.Unlock()
	if o, ok := m.Outcome(code); ok {
		return o, nil
	}
	return store.Outcome{}, store.ErrNotFound
}

// Leaderboard implements store.Ratings.
func (s *Store) Leaderboard(_ context.Context, game string, n int) ([]store.Ranked, error) {
	return store.Top(s.board(game), n), nil
}

// Rank implements store.Ratings.
func (s *Store) Rank(_ context.Context, game, player string) (int, error) {
	return store.RankIn(s.board(game), player), nil
}

// board is every player's rating in game.
func (s *Store) board(game string) map[string]store.Rating {
	m := s.ratings.lock()
	defer m.mu.Unlock()
	out := map[string]store.Rating{}
	for k, r := range m.ratings {
		if g, p, _ := strings.Cut(k, "\x00"); g == game {
			out[p] = r
		}
	}
	return out
}

// SoloRecords implements store.Ratings.
func (s *Store) SoloRecords(_ context.Context, player string) ([]store.SoloRecord, error) {
	m := s.ratings.lock()
	defer m.mu.Unlock()
	var out []store.SoloRecord
	for k, r := range m.solos {
		if strings.HasPrefix(k, player+"\x00") {
			out = append(out, r)
		}
	}
	return store.SortSolo(out), nil
}
