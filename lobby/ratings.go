package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/internal/openskill"
)

// Rating is a player's rating in one game (records.go says how it moves).
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	// Games counts the rated games behind it; the store also compares
	// it to see that nobody rated the player meanwhile.
	Games int `json:"games"`
}

// Ordinal is the rating shown and ranked by: mu - 3 sigma, the skill the
// player has with about 99.7% confidence (0 for a newcomer).
func (r Rating) Ordinal() float64 { return openskill.Rating{Mu: r.Mu, Sigma: r.Sigma}.Ordinal() }

// Outcome is what one finished room did to its players' records. It is
// kept once per room code, which makes recording a game idempotent: a
// retry, or another instance recording the same room, finds it there.
type Outcome struct {
	Code string    `json:"code"`
	Game string    `json:"game"`
	At   time.Time `json:"at"`
	// Rated are the rating changes of a game between people.
	Rated []RatingChange `json:"rated,omitempty"`
	// Solo is a solo game against the game's own opponent.
	Solo *SoloResult `json:"solo,omitempty"`
}

// RatingChange is one seat's rating before and after a game.
type RatingChange struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Before Rating `json:"before"`
	After  Rating `json:"after"`
}

// SoloResult is a solo game's result for its player's record.
type SoloResult struct {
	Player string `json:"player"`
	Won    bool   `json:"won"`
	Score  int    `json:"score"`
	// Record is the player's record against this opponent after the
	// game, as the store kept it.
	Record SoloRecord `json:"record"`
}

// SoloRecord is a player's record against a game's own opponent at one
// level ("The Machine (hard)"), apart from ratings.
type SoloRecord struct {
	Game     string `json:"game"`
	Opponent string `json:"opponent"`
	Wins     int    `json:"wins"`
	Losses   int    `json:"losses"`
	Best     int    `json:"best"`
}

// RatingStore keeps ratings, solo records and the outcome of every
// recorded room. Every Store here implements it; with Redis every instance
// sees the same ratings.
type RatingStore interface {
	// Ratings returns the ratings of players in game; a player without
	// one is missing from the map.
	Ratings(ctx context.Context, game string, players []string) (map[string]Rating, error)
	// Record keeps o, once per room: if an outcome of o.Code is kept
	// already it returns that and changes nothing. Otherwise it sets each
	// rated player's rating in o.Game to After, if it still is Before (a
	// player without one counts 0 games): ErrConflict if not; adds
	// o.Solo to its player's record (filling in Record); and keeps o.
	Record(ctx context.Context, o Outcome) (Outcome, error)
	// Outcome returns the kept outcome of room code; ErrNotFound if none.
	Outcome(ctx context.Context, code string) (Outcome, error)
	// Leaderboard returns every player's rating in game.
	Leaderboard(ctx context.Context, game string) (map[string]Rating, error)
	// SoloRecords returns player's solo records.
	SoloRecords(ctx context.Context, player string) ([]SoloRecord, error)
}

// ratingSet is the records as plain data, shared by the three stores,
// each of which changes it in one locked step or transaction.
type ratingSet interface {
	outcome(code string) (Outcome, bool)
	rating(game, player string) (Rating, bool)
	solo(player, game, opponent string) (SoloRecord, bool)
	putOutcome(o Outcome)
	putRating(game, player string, r Rating)
	putSolo(player string, r SoloRecord)
}

func recordOutcome(s ratingSet, o Outcome) (Outcome, error) {
	if kept, ok := s.outcome(o.Code); ok {
		return kept, nil
	}
	for _, c := range o.Rated {
		if now, _ := s.rating(o.Game, c.Player); now.Games != c.Before.Games {
			return Outcome{}, fmt.Errorf("rating of %s: %w", c.Player, ErrConflict)
		}
	}
	for _, c := range o.Rated {
		s.putRating(o.Game, c.Player, c.After)
	}
	if o.Solo != nil {
		solo := *o.Solo
		rec, ok := s.solo(solo.Player, o.Game, solo.Record.Opponent)
		if !ok {
			rec = SoloRecord{Game: o.Game, Opponent: solo.Record.Opponent, Best: solo.Score}
		}
		if solo.Won {
			rec.Wins++
		} else {
			rec.Losses++
		}
		rec.Best = max(rec.Best, solo.Score)
		solo.Record = rec
		s.putSolo(solo.Player, rec)
		o.Solo = &solo
	}
	s.putOutcome(o)
	return o, nil
}

func soloKey(player, game, opponent string) string { return player + "\x00" + game + "\x00" + opponent }

func ratingKey(game, player string) string { return game + "\x00" + player }

// sortSolo orders records by game, then opponent.
func sortSolo(recs []SoloRecord) []SoloRecord {
	slices.SortFunc(recs, func(a, b SoloRecord) int {
		return strings.Compare(a.Game+"\x00"+a.Opponent, b.Game+"\x00"+b.Opponent)
	})
	return recs
}

// memRatings keeps records in memory; MemStore embeds it.
type memRatings struct {
	rmu      sync.Mutex
	outcomes map[string]Outcome
	ratings  map[string]Rating     // ratingKey -> rating
	solos    map[string]SoloRecord // soloKey -> record
}

func (m *memRatings) lock() *memRatings {
	m.rmu.Lock()
	if m.outcomes == nil {
		m.outcomes, m.ratings, m.solos = map[string]Outcome{}, map[string]Rating{}, map[string]SoloRecord{}
	}
	return m
}

func (m *memRatings) outcome(code string) (Outcome, bool) { o, ok := m.outcomes[code]; return o, ok }
func (m *memRatings) rating(game, player string) (Rating, bool) {
	r, ok := m.ratings[ratingKey(game, player)]
	return r, ok
}
func (m *memRatings) solo(player, game, opponent string) (SoloRecord, bool) {
	r, ok := m.solos[soloKey(player, game, opponent)]
	return r, ok
}
func (m *memRatings) putOutcome(o Outcome)                    { m.outcomes[o.Code] = o }
func (m *memRatings) putRating(game, player string, r Rating) { m.ratings[ratingKey(game, player)] = r }
func (m *memRatings) putSolo(player string, r SoloRecord) {
	m.solos[soloKey(player, r.Game, r.Opponent)] = r
}

// Ratings implements RatingStore.
func (m *memRatings) Ratings(_ context.Context, game string, players []string) (map[string]Rating, error) {
	defer m.lock().rmu.Unlock()
	out := map[string]Rating{}
	for _, p := range players {
		if r, ok := m.rating(game, p); ok {
			out[p] = r
		}
	}
	return out, nil
}

// Record implements RatingStore.
func (m *memRatings) Record(_ context.Context, o Outcome) (Outcome, error) {
	defer m.lock().rmu.Unlock()
	return recordOutcome(m, o)
}

// Outcome implements RatingStore.
func (m *memRatings) Outcome(_ context.Context, code string) (Outcome, error) {
	defer m.lock().rmu.Unlock()
	if o, ok := m.outcome(code); ok {
		return o, nil
	}
	return Outcome{}, ErrNotFound
}

// Leaderboard implements RatingStore.
func (m *memRatings) Leaderboard(_ context.Context, game string) (map[string]Rating, error) {
	defer m.lock().rmu.Unlock()
	out := map[string]Rating{}
	for k, r := range m.ratings {
		if g, p, _ := strings.Cut(k, "\x00"); g == game {
			out[p] = r
		}
	}
	return out, nil
}

// SoloRecords implements RatingStore.
func (m *memRatings) SoloRecords(_ context.Context, player string) ([]SoloRecord, error) {
	defer m.lock().rmu.Unlock()
	var out []SoloRecord
	for k, r := range m.solos {
		if strings.HasPrefix(k, player+"\x00") {
			out = append(out, r)
		}
	}
	return sortSolo(out), nil
}

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

func (b *boltRatings) outcome(code string) (o Outcome, ok bool) {
	return o, b.read(b.outcomes, code, &o)
}
func (b *boltRatings) rating(game, player string) (r Rating, ok bool) {
	return r, b.read(b.ratings, ratingKey(game, player), &r)
}
func (b *boltRatings) solo(player, game, opponent string) (r SoloRecord, ok bool) {
	return r, b.read(b.solos, soloKey(player, game, opponent), &r)
}
func (b *boltRatings) putOutcome(o Outcome) { b.keep(putJSON(b.outcomes, []byte(o.Code), o)) }
func (b *boltRatings) putRating(game, player string, r Rating) {
	b.keep(putJSON(b.ratings, []byte(ratingKey(game, player)), r))
}
func (b *boltRatings) putSolo(player string, r SoloRecord) {
	b.keep(putJSON(b.solos, []byte(soloKey(player, r.Game, r.Opponent)), r))
}

// readRatings runs read in a read-only transaction; buckets not made yet
// are nil, and read as empty.
func (s *BoltStore) readRatings(read func(b *boltRatings) error) error {
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

// Ratings implements RatingStore.
func (s *BoltStore) Ratings(_ context.Context, game string, players []string) (map[string]Rating, error) {
	out := map[string]Rating{}
	err := s.readRatings(func(b *boltRatings) error {
		for _, p := range players {
			if r, ok := b.rating(game, p); ok {
				out[p] = r
			}
		}
		return nil
	})
	return out, err
}

// Record implements RatingStore: one transaction, so it happens whole or
// not at all.
func (s *BoltStore) Record(_ context.Context, o Outcome) (kept Outcome, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		var bs [3]*bolt.Bucket
		for i, name := range [][]byte{outcomesBucket, ratingsBucket, solosBucket} {
			if bs[i], err = tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		b := &boltRatings{outcomes: bs[0], ratings: bs[1], solos: bs[2]}
		if kept, err = recordOutcome(b, o); err != nil {
			return err
		}
		return b.err
	})
	return kept, err
}

// Outcome implements RatingStore.
func (s *BoltStore) Outcome(_ context.Context, code string) (o Outcome, err error) {
	err = s.readRatings(func(b *boltRatings) error {
		var ok bool
		if o, ok = b.outcome(code); !ok && b.err == nil {
			return ErrNotFound
		}
		return nil
	})
	return o, err
}

// Leaderboard implements RatingStore.
func (s *BoltStore) Leaderboard(_ context.Context, game string) (map[string]Rating, error) {
	out := map[string]Rating{}
	err := s.readRatings(func(b *boltRatings) error {
		return scan(b.ratings, game+"\x00", func(k, v []byte) error {
			var r Rating
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("rating %q: %w", k, err)
			}
			out[strings.TrimPrefix(string(k), game+"\x00")] = r
			return nil
		})
	})
	return out, err
}

// SoloRecords implements RatingStore.
func (s *BoltStore) SoloRecords(_ context.Context, player string) ([]SoloRecord, error) {
	var out []SoloRecord
	err := s.readRatings(func(b *boltRatings) error {
		return scan(b.solos, player+"\x00", func(k, v []byte) error {
			var r SoloRecord
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("solo record %q: %w", k, err)
			}
			out = append(out, r)
			return nil
		})
	})
	return sortSolo(out), err
}

// Redis keeps records in three hashes in one cluster slot, so recording
// a room is one optimistic transaction over them.
const (
	redisOutcomes = redisPrefix + "{records}:outcomes" // code -> Outcome JSON
	redisRatings  = redisPrefix + "{records}:ratings"  // ratingKey -> Rating JSON
	redisSolos    = redisPrefix + "{records}:solos"    // soloKey -> SoloRecord JSON
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

func (r *redisRatingTx) outcome(code string) (o Outcome, ok bool) {
	return o, r.read(redisOutcomes, code, &o)
}
func (r *redisRatingTx) rating(game, player string) (x Rating, ok bool) {
	return x, r.read(redisRatings, ratingKey(game, player), &x)
}
func (r *redisRatingTx) solo(player, game, opponent string) (x SoloRecord, ok bool) {
	return x, r.read(redisSolos, soloKey(player, game, opponent), &x)
}
func (r *redisRatingTx) putOutcome(o Outcome) { r.write(redisOutcomes, o.Code, o) }
func (r *redisRatingTx) putRating(game, player string, x Rating) {
	r.write(redisRatings, ratingKey(game, player), x)
}
func (r *redisRatingTx) putSolo(player string, x SoloRecord) {
	r.write(redisSolos, soloKey(player, x.Game, x.Opponent), x)
}

// Ratings implements RatingStore.
func (s *RedisStore) Ratings(ctx context.Context, game string, players []string) (map[string]Rating, error) {
	out := map[string]Rating{}
	if len(players) == 0 {
		return out, nil
	}
	fields := make([]string, len(players))
	for i, p := range players {
		fields[i] = ratingKey(game, p)
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
		var r Rating
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return nil, fmt.Errorf("rating of %s: %w", players[i], err)
		}
		out[players[i]] = r
	}
	return out, nil
}

// Record implements RatingStore. The transaction watches the three
// hashes: should another instance record a game between its reads and
// its writes, it runs again on what is there then. A retry of a record
// whose reply was lost finds the outcome kept, and changes nothing.
func (s *RedisStore) Record(ctx context.Context, o Outcome) (Outcome, error) {
	var kept Outcome
	err := s.optimistic(ctx, func(tx *redis.Tx) error {
		r := &redisRatingTx{ctx: ctx, tx: tx}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			r.pipe = pipe
			var err error
			if kept, err = recordOutcome(r, o); err != nil {
				return err
			}
			return r.err
		})
		return err
	}, redisOutcomes, redisRatings, redisSolos)
	if err != nil {
		return Outcome{}, fmt.Errorf("record room %s: %w", o.Code, err)
	}
	return kept, nil
}

// Outcome implements RatingStore.
func (s *RedisStore) Outcome(ctx context.Context, code string) (Outcome, error) {
	data, err := s.rdb.HGet(ctx, redisOutcomes, code).Bytes()
	if errors.Is(err, redis.Nil) {
		return Outcome{}, ErrNotFound
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("read outcome of %s: %w", code, err)
	}
	var o Outcome
	if err := json.Unmarshal(data, &o); err != nil {
		return Outcome{}, fmt.Errorf("outcome of %s: %w", code, err)
	}
	return o, nil
}

// hscan calls each for every field of hash with the prefix.
func (s *RedisStore) hscan(ctx context.Context, hash, prefix string, each func(field, data string) error) error {
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

// Leaderboard implements RatingStore.
func (s *RedisStore) Leaderboard(ctx context.Context, game string) (map[string]Rating, error) {
	out := map[string]Rating{}
	err := s.hscan(ctx, redisRatings, game+"\x00", func(field, data string) error {
		var r Rating
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

// SoloRecords implements RatingStore.
func (s *RedisStore) SoloRecords(ctx context.Context, player string) ([]SoloRecord, error) {
	var out []SoloRecord
	err := s.hscan(ctx, redisSolos, player+"\x00", func(field, data string) error {
		var r SoloRecord
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return fmt.Errorf("solo record %q: %w", field, err)
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read solo records: %w", err)
	}
	return sortSolo(out), nil
}
