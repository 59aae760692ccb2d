package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Scripts answer 1 for done, 0 for a failed compare-and-set (or a taken
// code) and -1 for a missing room. Each write compares its payload with what
// is stored when the check fails, so a write that go-redis retries after a
// lost reply is recognised as already done instead of reported as a
// conflict — otherwise the room would judge its own move again and could
// play it twice.
var (
	createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'json') == ARGV[1] then return 1 end
  return 0
end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'version', ARGV[2], 'updated', ARGV[3], 'over', ARGV[4])
redis.call('SPUBLISH', ARGV[5], ARGV[6])
return 1`)

	appendScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local n = redis.call('LLEN', KEYS[2])
local at = tonumber(ARGV[1])
if n ~= at then
  if n > at and redis.call('LINDEX', KEYS[2], at) == ARGV[2] then return 1 end
  return 0
end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[1], 'updated', ARGV[3], 'status', ARGV[7])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'over', '1', 'result', ARGV[4]) end
redis.call('SPUBLISH', ARGV[5], ARGV[6])
return 1`)

	saveMetaScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return -1 end
if tonumber(v) ~= tonumber(ARGV[1]) - 1 then
  if tonumber(v) == tonumber(ARGV[1]) and redis.call('HGET', KEYS[1], 'json') == ARGV[2] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'version', ARGV[1], 'updated', ARGV[3], 'over', ARGV[4])
redis.call('SPUBLISH', ARGV[5], ARGV[6])
return 1`)

	deleteScript = redis.NewScript(`
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('SPUBLISH', ARGV[1], ARGV[2])
return 1`)
)

func redisTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func redisBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Create implements store.Rooms.
func (s *Store) Create(ctx context.Context, m store.Meta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	// The index and the lists are in other cluster slots, so they cannot
	// join the script. Listing first means a crash in between leaves an
	// entry readers skip, never a room they cannot find (lists.go).
	if err := s.list(ctx, m); err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	if err := s.rdb.SAdd(ctx, redisRoomIndex, m.Code).Err(); err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	n, err := s.write(ctx, createScript, []string{metaKey(m.Code), movesKey(m.Code)},
		data, m.Version, redisTime(m.Updated), redisBool(m.Over), roomChannel(m.Code), s.announcement(m.Code))
	if err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	if n == 0 {
		return store.ErrExists
	}
	s.listCreated(ctx, m)
	s.announceIndex(ctx, m.Code)
	return nil
}

// Load implements store.Rooms. Metadata and moves are read in one transaction,
// so they always belong together.
func (s *Store) Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error) {
	var meta *redis.SliceCmd
	var length *redis.IntCmd
	var moves *redis.StringSliceCmd
	_, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		meta = p.HMGet(ctx, metaKey(code), metaFields...)
		length = p.LLen(ctx, movesKey(code))
		moves = p.LRange(ctx, movesKey(code), int64(max(0, from)), -1)
		return nil
	})
	if err != nil {
		return store.Meta{}, nil, fmt.Errorf("load room %s: %w", code, err)
	}
	m, err := decodeMeta(code, meta.Val())
	if err != nil {
		return store.Meta{}, nil, err
	}
	m.Moves = int(length.Val())
	recs, err := decodeMoves(code, from, moves.Val())
	return m, recs, err
}

// Append implements store.Rooms. The round and acting seats go in the hash's
// status field, beside the metadata's JSON, as updated and over do.
func (s *Store) Append(ctx context.Context, code string, at int, r store.Record, st engine.Status) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("append to room %s: %w", code, err)
	}
	var end []byte // empty while the game goes on
	if st.Result != nil {
		if end, err = json.Marshal(st.Result); err != nil {
			return fmt.Errorf("append to room %s: %w", code, err)
		}
	}
	standing, err := json.Marshal(redisStatus{Round: st.Round, Acting: st.Acting})
	if err != nil {
		return fmt.Errorf("append to room %s: %w", code, err)
	}
	n, err := s.writeTogether(ctx, appendScript, []string{metaKey(code), movesKey(code)},
		at, data, redisTime(r.At), end, roomChannel(code), s.announcement(code), standing)
	if err != nil {
		return fmt.Errorf("append move %d to room %s: %w", at, code, err)
	}
	if n == 1 && end != nil {
		s.listEnded(ctx, code)
		s.announceIndex(ctx, code) // the lists move it to finished games
	}
	return scriptResult(n)
}

// SaveMeta implements store.Rooms.
func (s *Store) SaveMeta(ctx context.Context, m store.Meta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("save room %s: %w", m.Code, err)
	}
	if err := s.list(ctx, m); err != nil {
		return fmt.Errorf("save room %s: %w", m.Code, err)
	}
	n, err := s.write(ctx, saveMetaScript, []string{metaKey(m.Code)},
		m.Version, data, redisTime(m.Updated), redisBool(m.Over), roomChannel(m.Code), s.announcement(m.Code))
	if err != nil {
		return fmt.Errorf("save room %s: %w", m.Code, err)
	}
	if n == 1 {
		_ = s.relist(ctx, m)         // the first listing stands should this fail
		s.announceIndex(ctx, m.Code) // seats, start, visibility: what lists show
	}
	return scriptResult(n)
}

func scriptResult(n int) error {
	switch n {
	case 1:
		return nil
	case 0:
		return store.ErrConflict
	default:
		return store.ErrNotFound
	}
}

// List implements store.Rooms. Codes in the index whose room is gone (a create
// that failed half-way) are skipped.
func (s *Store) List(ctx context.Context) ([]store.Meta, error) {
	codes, err := s.rdb.SMembers(ctx, redisRoomIndex).Result()
	if err != nil {
		return nil, fmt.Errorf("list rooms: %w", err)
	}
	out := make([]store.Meta, 0, len(codes))
	const batch = 500 // bounds one pipeline's memory with many rooms
	for len(codes) > 0 {
		part := codes[:min(batch, len(codes))]
		codes = codes[len(part):]
		metas, err := s.metasOf(ctx, part)
		if err != nil {
			return nil, fmt.Errorf("list rooms: %w", err)
		}
		out = append(out, metas...)
	}
	return out, nil
}

// Delete implements store.Rooms.
func (s *Store) Delete(ctx context.Context, code string) error {
	listed, err := s.metasOf(ctx, []string{code}) // the lists it is in
	if err != nil {
		return fmt.Errorf("delete room %s: %w", code, err)
	}
	err = deleteScript.Run(ctx, s.rdb, []string{metaKey(code), movesKey(code), presenceKey(code)}, roomChannel(code), s.announcement(code)).Err()
	if err == nil {
		err = s.rdb.SRem(ctx, redisRoomIndex, code).Err()
	}
	if err != nil {
		return fmt.Errorf("delete room %s: %w", code, err)
	}
	s.unlistDeleted(ctx, listed)
	s.announceIndex(ctx, code)
	return nil
}

// announceIndex tells every instance that room code changed what room
// lists show (created, reseated, started, finished, deleted). The index
// channel is in a slot of its own, so a room's script cannot publish on
// it: this follows the write, and is lost with it should the instance die
// in between, like any message (the lists are read again within seconds).
func (s *Store) announceIndex(ctx context.Context, code string) {
	_ = s.rdb.SPublish(ctx, indexChannel, s.announcement(code)).Err()
}

// metaFields are the hash fields Meta is read from.
var metaFields = []string{"json", "updated", "over", "result", "status"}

// redisStatus is the status field: the round and acting seats as of the
// last move.
type redisStatus struct {
	Round  int   `json:"round"`
	Acting []int `json:"acting"`
}

// decodeMeta rebuilds Meta from the hash fields json, updated, over,
// result and status: Append changes only the last four, so they override
// what json says.
func decodeMeta(code string, fields []any) (store.Meta, error) {
	var m store.Meta
	raw, ok := fields[0].(string)
	if !ok {
		return m, store.ErrNotFound
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return m, fmt.Errorf("room %s metadata: %w", code, err)
	}
	if updated, ok := fields[1].(string); ok {
		t, err := time.Parse(time.RFC3339Nano, updated)
		if err != nil {
			return m, fmt.Errorf("room %s updated time: %w", code, err)
		}
		m.Updated = t
	}
	if over, ok := fields[2].(string); ok {
		m.Over = over == "1"
	}
	if result, ok := fields[3].(string); ok && result != "" {
		m.Result = new(engine.Result)
		if err := json.Unmarshal([]byte(result), m.Result); err != nil {
			return m, fmt.Errorf("room %s result: %w", code, err)
		}
	}
	if status, ok := fields[4].(string); ok && status != "" {
		var st redisStatus
		if err := json.Unmarshal([]byte(status), &st); err != nil {
			return m, fmt.Errorf("room %s status: %w", code, err)
		}
		m.Round, m.Acting = st.Round, st.Acting
	}
	return m, nil
}

func decodeMoves(code string, from int, raw []string) ([]store.Record, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make([]store.Record, len(raw))
	for i, data := range raw {
		if err := json.Unmarshal([]byte(data), &out[i]); err != nil {
			return nil, fmt.Errorf("room %s move %d: %w", code, from+i, err)
		}
	}
	return out, nil
}
