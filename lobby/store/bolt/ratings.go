package bolt

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/lobby/store"
)

var (
	outcomesBucket = []byte("outcomes") // code -> Outcome JSON
	ratingsBucket  = []byte("ratings")  // ratingKey -> Rating JSON
	solosBucket    = []byte("solos")    // soloKey -> SoloRecord JSON
)

// boltRatings is the records in one bbolt write transaction.
type boltRatings struct {
	outcomes, ratings, solos *bolt.Bucket
	err                      error
}

func (b *boltRatings) keep(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *boltRatings) read(bucket *bolt.Bucket, key string, v any) bool {
	data, ok := bucketGet(bucket, key)
	if !ok {
		return false
	}
	if err := json.Unmarshal([]byte(data), v); err != nil {
		b.keep(fmt.Errorf("%s: %w", key, err))
		return false
	}
	return true
}

func (b *boltRatings) Outcome(code string) (o store.Outcome, ok bool) {
	return o, b.read(b.outcomes, code, &o)
}
func (b *boltRatings) Rating(game, player string) (r store.Rating, ok bool) {
	return r, b.read(b.ratings, store.RatingKey(game, player), &r)
}
func (b *boltRatings) Solo(player, game, opponent string) (r store.SoloRecord, ok bool) {
	return r, b.read(b.solos, store.SoloKey(player, game, opponent), &r)
}
func (b *boltRatings) PutOutcome(o store.Outcome) { b.keep(putJSON(b.outcomes, []byte(o.Code), o)) }
func (b *boltRatings) PutRating(game, player string, r store.Rating) {
	b.keep(putJSON(b.ratings, []byte(store.RatingKey(game, player)), r))
}
func (b *boltRatings) PutSolo(player string, r store.SoloRecord) {
	b.keep(putJSON(b.solos, []byte(store.SoloKey(player, r.Game, r.Opponent)), r))
}

// readRatings runs read in a read-only transaction; buckets not made yet
// are nil, and read as empty.
func (s *Store) readRatings(read func(b *boltRatings) error) error {
	return s.db.View(func(tx *bolt.Tx) error {
		b := &boltRatings{outcomes: tx.Bucket(outcomesBucket), ratings: tx.Bucket(ratingsBucket), solos: tx.Bucket(solosBucket)}
		if err := read(b); err != nil {
			return err
		}
		return b.err
	})
}

// scan calls each for every key of bucket with the prefix.
func scan(bucket *bolt.Bucket, prefix string, each func(k, v []byte) error) error {
	if bucket == nil {
		return nil
	}
	c := bucket.Cursor()
	for k, v := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
		if err := each(k, v); err != nil {
			return err
		}
	}
	return nil
}

// Ratings implements store.Ratings.
func (s *Store) Ratings(_ context.Context, game string, players []string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	err := s.readRatings(func(b *boltRatings) error {
		for _, p := range players {
			if r, ok := b.Rating(game, p); ok {
				out[p] = r
			}
		}
		return nil
	})
	return out, err
}

// Record implements store.Ratings: one transaction, so it happens whole or
// not at all.
func (s *Store) Record(_ context.Context, o store.Outcome) (kept store.Outcome, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		var bs [3]*bolt.Bucket
		for i, name := range [][]byte{outcomesBucket, ratingsBucket, solosBucket} {
			if bs[i], err = tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		b := &boltRatings{outcomes: bs[0], ratings: bs[1], solos: bs[2]}
		if kept, err = store.RecordOutcome(b, o); err != nil {
			return err
		}
		return b.err
	})
	return kept, err
}

// Outcome implements store.Ratings.
func (s *Store) Outcome(_ context.Context, code string) (o store.Outcome, err error) {
	err = s.readRatings(func(b *boltRatings) error {
		var ok bool
		if o, ok = b.Outcome(code); !ok && b.err == nil {
			return store.ErrNotFound
		}
		return nil
	})
	return o, err
}

// Leaderboard implements store.Ratings.
func (s *Store) Leaderboard(_ context.Context, game string, n int) ([]store.Ranked, error) {
	board, err := s.board(game)
	return store.Top(board, n), err
}

// Rank implements store.Ratings.
func (s *Store) Rank(_ context.Context, game, player string) (int, error) {
	board, err := s.board(game)
	return store.RankIn(board, player), err
}

// board is every player's rating in game.
func (s *Store) board(game string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	err := s.readRatings(func(b *boltRatings) error {
		return scan(b.ratings, game+"\x00", func(k, v []byte) error {
			var r store.Rating
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("rating %q: %w", k, err)
			}
			out[strings.TrimPrefix(string(k), game+"\x00")] = r
			return nil
		})
	})
	return out, err
}

// SoloRecords implements store.Ratings.
func (s *Store) SoloRecords(_ context.Context, player string) ([]store.SoloRecord, error) {
	var out []store.SoloRecord
	err := s.readRatings(func(b *boltRatings) error {
		return scan(b.solos, player+"\x00", func(k, v []byte) error {
			var r store.SoloRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("solo record %q: %w", k, err)
			}
			out = append(out, r)
			return nil
		})
	})
	return store.SortSolo(out), err
}
