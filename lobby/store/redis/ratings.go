package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// redisRatingTx is the records as one optimistic transaction reads them.
type redisRatingTx struct {
	ctx  context.Context
	tx   *redis.Tx
	pipe redis.Pipeliner
	err  error
}

func (r *redisRatingTx) read(hash, field string, v any) bool {
	data, err := r.tx.HGet(r.ctx, hash, field).Bytes()
	if err != nil {
		if !errors.Is(err, redis.Nil) && r.err == nil {
			r.err = err
		}
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		if r.err == nil {
			r.err = fmt.Errorf("%s %q: %w", hash, field, err)
		}
		return false
	}
	return true
}

func (r *redisRatingTx) write(hash, field string, v any) {
	data, err := json.Marshal(v)
	if err != nil && r.err == nil {
		r.err = err
	}
	r.pipe.HSet(r.ctx, hash, field, data)
}

func (r *redisRatingTx) Outcome(code string) (o store.Outcome, ok bool) {
	return o, r.read(redisOutcomes, code, &o)
}
func (r *redisRatingTx) Rating(game, player string) (x store.Rating, ok bool) {
	return x, r.read(redisRatings, store.RatingKey(game, player), &x)
}
func (r *redisRatingTx) Solo(player, game, opponent string) (x store.SoloRecord, ok bool) {
	return x, r.read(redisSolos, store.SoloKey(player, game, opponent), &x)
}
func (r *redisRatingTx) PutOutcome(o store.Outcome) { r.write(redisOutcomes, o.Code, o) }
func (r *redisRatingTx) PutRating(game, player string, x store.Rating) {
	r.write(redisRatings, store.RatingKey(game, player), x)
}
func (r *redisRatingTx) PutSolo(player string, x store.SoloRecord) {
	r.write(redisSolos, store.SoloKey(player, x.Game, x.Opponent), x)
}

// Ratings implements store.Ratings.
func (s *Store) Ratings(ctx context.Context, game string, players []string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	if len(players) == 0 {
		return out, nil
	}
	fields := make([]string, len(players))
	for i, p := range players {
		fields[i] = store.RatingKey(game, p)
	}
	vals, err := s.rdb.HMGet(ctx, redisRatings, fields...).Result()
	if err != nil {
		return nil, fmt.Errorf("read ratings: %w", err)
	}
	for i, v := range vals {
		data, ok := v.(string)
		if !ok {
			continue
		}
		var r store.Rating
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return nil, fmt.Errorf("rating of %s: %w", players[i], err)
		}
		out[players[i]] = r
	}
	return out, nil
}

// Record implements store.Ratings. The transaction watches the three
// hashes: should another instance record a game between its reads and
// its writes, it runs again on what is there then. A retry of a record
// whose reply was lost finds the outcome kept, and changes nothing.
func (s *Store) Record(ctx context.Context, o store.Outcome) (store.Outcome, error) {
	var kept store.Outcome
	err := s.optimistic(ctx, func(tx *redis.Tx) error {
		r := &redisRatingTx{ctx: ctx, tx: tx}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			r.pipe = pipe
			var err error
			if kept, err = store.RecordOutcome(r, o); err != nil {
				return err
			}
			return r.err
		})
		return err
	}, redisOutcomes, redisRatings, redisSolos)
	if err != nil {
		return store.Outcome{}, fmt.Errorf("record room %s: %w", o.Code, err)
	}
	return kept, nil
}

// Outcome implements store.Ratings.
func (s *Store) Outcome(ctx context.Context, code string) (store.Outcome, error) {
	data, err := s.rdb.HGet(ctx, redisOutcomes, code).Bytes()
	if errors.Is(err, redis.Nil) {
		return store.Outcome{}, store.ErrNotFound
	}
	if err != nil {
		return store.Outcome{}, fmt.Errorf("read outcome of %s: %w", code, err)
	}
	var o store.Outcome
	if err := json.Unmarshal(data, &o); err != nil {
		return store.Outcome{}, fmt.Errorf("outcome of %s: %w", code, err)
	}
	return o, nil
}

// hscan calls each for every field of hash with the prefix.
func (s *Store) hscan(ctx context.Context, hash, prefix string, each func(field, data string) error) error {
	iter := s.rdb.HScan(ctx, hash, 0, escapeGlob(prefix)+"*", 500).Iterator()
	for iter.Next(ctx) {
		field := iter.Val()
		if !iter.Next(ctx) {
			break
		}
		if err := each(field, iter.Val()); err != nil {
			return err
		}
	}
	return iter.Err()
}

// escapeGlob makes s match itself in a Redis MATCH pattern.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Leaderboard implements store.Ratings.
func (s *Store) Leaderboard(ctx context.Context, game string) (map[string]store.Rating, error) {
	out := map[string]store.Rating{}
	err := s.hscan(ctx, redisRatings, game+"\x00", func(field, data string) error {
		var r store.Rating
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return fmt.Errorf("rating %q: %w", field, err)
		}
		out[strings.TrimPrefix(field, game+"\x00")] = r
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the leaderboard: %w", err)
	}
	return out, nil
}

// SoloRecords implements store.Ratings.
func (s *Store) SoloRecords(ctx context.Context, player string) ([]store.SoloRecord, error) {
	var out []store.SoloRecord
	err := s.hscan(ctx, redisSolos, player+"\x00", func(field, data string) error {
		var r store.SoloRecord
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return fmt.Errorf("solo record %q: %w", field, err)
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read solo records: %w", err)
	}
	return store.SortSolo(out), nil
}
