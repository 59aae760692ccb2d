package lobby

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/engine"
)

// RedisStore keeps rooms in Redis so that several server instances serve
// one player base. Every write is a Lua script, so its check and its change
// happen as one step however many instances race; see "Many instances" in
// docs/architecture.md for the design.
//
// Keys (the braces are a cluster hash tag, so one room's keys share a slot
// and its scripts stay legal on Redis Cluster):
//
//	smokestack:{CODE}:meta      hash: json (Meta), version, updated, over, result,
//	                            status (round and acting seats)
//	smokestack:{CODE}:moves     list of Record JSON, index = move number
//	smokestack:{CODE}:presence  hash: which instance's sessions hold which
//	                            seats, and when each seat was last held
//	smokestack:{CODE}:chat      list of ChatLine JSON, oldest first (chat.go)
//	smokestack:lobbychat        the lobby's chat, likewise
//	smokestack:rooms            set of room codes, for List
//	smokestack:misses:NAME      failed room lookups by a key or an address,
//	                            and new profiles by an address (NAME
//	                            profiles:ADDR, identity.go), expiring
//	                            with their window (misses.go)
//	smokestack:missturn:NAME    when the last of NAME's slowed misses is
//	                            answered, expiring then (misses.go)
//	smokestack:operators:reply:ID  the instances' answers to one operator
//	                            request, expiring in 30 s (operators.go)
//
// Every committed change, and every change in the seats an instance holds,
// is announced on the channel smokestack:changes as "ORIGIN CODE" (a line
// said in a room's chat as "ORIGIN chat:CODE", in the lobby's as "ORIGIN
// chat:"); the
// keys, not the message, are the truth, so a lost message costs only
// latency until the next one or the next resubscribe. Operators' requests
// go to every instance on smokestack:operators. RedisStore also implements
// Presence (redispresence.go) and Instances (operators.go).
type RedisStore struct {
	rdb    redis.UniversalClient
	origin string // tells this store's own announcements from others'
}

const (
	redisPrefix    = "smokestack:"
	redisRoomIndex = redisPrefix + "rooms"
	redisChannel   = redisPrefix + "changes"
)

// OpenRedis connects to the Redis at url ("redis://[:password@]host:port/db",
// or rediss:// for TLS) and checks that it answers.
func OpenRedis(ctx context.Context, url string) (*RedisStore, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis url: %w", err)
	}
	s := NewRedisStore(redis.NewClient(opt))
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		s.rdb.Close()
		return nil, fmt.Errorf("reach redis at %s: %w", opt.Addr, err)
	}
	return s, nil
}

// NewRedisStore uses an existing client, such as a redis.ClusterClient.
// Closing the store closes the client.
func NewRedisStore(rdb redis.UniversalClient) *RedisStore {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &RedisStore{rdb: rdb, origin: hex.EncodeToString(b)}
}

func metaKey(code string) string  { return redisPrefix + "{" + code + "}:meta" }
func movesKey(code string) string { return redisPrefix + "{" + code + "}:moves" }

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
redis.call('PUBLISH', ARGV[5], ARGV[6])
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
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1`)

	saveMetaScript = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'version')
if not v then return -1 end
if tonumber(v) ~= tonumber(ARGV[1]) - 1 then
  if tonumber(v) == tonumber(ARGV[1]) and redis.call('HGET', KEYS[1], 'json') == ARGV[2] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'version', ARGV[1], 'updated', ARGV[3], 'over', ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1`)

	deleteScript = redis.NewScript(`
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1`)
)

func (s *RedisStore) announcement(code string) string { return s.origin + " " + code }

func redisTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func redisBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// Create implements Store.
func (s *RedisStore) Create(ctx context.Context, m Meta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	// The index is in another cluster slot, so it cannot join the script.
	// Indexing first means a crash in between leaves a code List skips,
	// never a room List cannot find.
	if err := s.rdb.SAdd(ctx, redisRoomIndex, m.Code).Err(); err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	n, err := createScript.Run(ctx, s.rdb, []string{metaKey(m.Code), movesKey(m.Code)},
		data, m.Version, redisTime(m.Updated), redisBool(m.Over), redisChannel, s.announcement(m.Code)).Int()
	if err != nil {
		return fmt.Errorf("create room %s: %w", m.Code, err)
	}
	if n == 0 {
		return ErrExists
	}
	return nil
}

// Load implements Store. Metadata and moves are read in one transaction,
// so they always belong together.
func (s *RedisStore) Load(ctx context.Context, code string, from int) (Meta, []Record, error) {
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
		return Meta{}, nil, fmt.Errorf("load room %s: %w", code, err)
	}
	m, err := decodeMeta(code, meta.Val())
	if err != nil {
		return Meta{}, nil, err
	}
	m.Moves = int(length.Val())
	recs, err := decodeMoves(code, from, moves.Val())
	return m, recs, err
}

// Append implements Store. The round and acting seats go in the hash's
// status field, beside the metadata's JSON, as updated and over do.
func (s *RedisStore) Append(ctx context.Context, code string, at int, r Record, st engine.Status) error {
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
	n, err := appendScript.Run(ctx, s.rdb, []string{metaKey(code), movesKey(code)},
		at, data, redisTime(r.At), end, redisChannel, s.announcement(code), standing).Int()
	if err != nil {
		return fmt.Errorf("append move %d to room %s: %w", at, code, err)
	}
	return scriptResult(n)
}

// SaveMeta implements Store.
func (s *RedisStore) SaveMeta(ctx context.Context, m Meta) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("save room %s: %w", m.Code, err)
	}
	n, err := saveMetaScript.Run(ctx, s.rdb, []string{metaKey(m.Code)},
		m.Version, data, redisTime(m.Updated), redisBool(m.Over), redisChannel, s.announcement(m.Code)).Int()
	if err != nil {
		return fmt.Errorf("save room %s: %w", m.Code, err)
	}
	return scriptResult(n)
}

func scriptResult(n int) error {
	switch n {
	case 1:
		return nil
	case 0:
		return ErrConflict
	default:
		return ErrNotFound
	}
}

// List implements Store. Codes in the index whose room is gone (a create
// that failed half-way) are skipped.
func (s *RedisStore) List(ctx context.Context) ([]Meta, error) {
	codes, err := s.rdb.SMembers(ctx, redisRoomIndex).Result()
	if err != nil {
		return nil, fmt.Errorf("list rooms: %w", err)
	}
	out := make([]Meta, 0, len(codes))
	const batch = 500 // bounds one pipeline's memory with many rooms
	for len(codes) > 0 {
		part := codes[:min(batch, len(codes))]
		codes = codes[len(part):]
		cmds := make([]*redis.SliceCmd, len(part))
		_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, code := range part {
				cmds[i] = p.HMGet(ctx, metaKey(code), metaFields...)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list rooms: %w", err)
		}
		for i, cmd := range cmds {
			m, err := decodeMeta(part[i], cmd.Val())
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// Delete implements Store.
func (s *RedisStore) Delete(ctx context.Context, code string) error {
	err := deleteScript.Run(ctx, s.rdb, []string{metaKey(code), movesKey(code), presenceKey(code)}, redisChannel, s.announcement(code)).Err()
	if err == nil {
		err = s.rdb.SRem(ctx, redisRoomIndex, code).Err()
	}
	if err != nil {
		return fmt.Errorf("delete room %s: %w", code, err)
	}
	return nil
}

// Close implements Store; it also ends every Changes subscription.
func (s *RedisStore) Close() error { return s.rdb.Close() }

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
func decodeMeta(code string, fields []any) (Meta, error) {
	var m Meta
	raw, ok := fields[0].(string)
	if !ok {
		return m, ErrNotFound
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

func decodeMoves(code string, from int, raw []string) ([]Record, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make([]Record, len(raw))
	for i, data := range raw {
		if err := json.Unmarshal([]byte(data), &out[i]); err != nil {
			return nil, fmt.Errorf("room %s move %d: %w", code, from+i, err)
		}
	}
	return out, nil
}

// Changes implements lobby.Changes: the codes of rooms changed by other
// instances, until ctx ends or the store closes. The subscription survives
// Redis restarts and network trouble; each time it is (re)established it
// also sends every room's code, because announcements made while it was
// down are lost and only a catch-up from the log can stand in for them.
// Codes waiting to be taken are merged, so a busy room costs one catch-up
// per read, not one per move.
func (s *RedisStore) Changes(ctx context.Context) <-chan string {
	out := make(chan string)
	q := newCodeQueue()
	go s.follow(ctx, q)
	go q.feed(ctx, out)
	return out
}

// healthInterval is how long a quiet subscription waits before pinging
// Redis, so a connection that died silently (a partition without a reset)
// is noticed and replaced.
const healthInterval = 3 * time.Second

func (s *RedisStore) follow(ctx context.Context, q *codeQueue) {
	defer q.close()
	for ctx.Err() == nil {
		err := s.subscribeOnce(ctx, q)
		if errors.Is(err, redis.ErrClosed) {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond): // Redis is away: retry soon, not in a spin
		}
	}
}

// subscribeOnce follows one subscription until it has to be replaced.
func (s *RedisStore) subscribeOnce(ctx context.Context, q *codeQueue) error {
	ps := s.rdb.Subscribe(ctx, redisChannel)
	defer ps.Close()
	stop := context.AfterFunc(ctx, func() { ps.Close() })
	defer stop()
	pinged := false
	failures := 0
	for {
		msg, err := ps.ReceiveTimeout(ctx, healthInterval)
		var nerr interface{ Timeout() bool }
		switch {
		case err == nil:
			failures = 0
		case errors.As(err, &nerr) && nerr.Timeout():
			if pinged {
				return fmt.Errorf("redis subscription silent after ping: %w", err)
			}
			pinged = true
			if err := ps.Ping(ctx); err != nil {
				return err
			}
			continue
		case errors.Is(err, redis.ErrClosed) || ctx.Err() != nil:
			return redis.ErrClosed
		default:
			// go-redis reconnects and resubscribes on the next Receive;
			// after a few failures in a row start over with a pause.
			if failures++; failures > 2 {
				return err
			}
			continue
		}
		pinged = false
		switch msg := msg.(type) {
		case *redis.Subscription:
			if msg.Kind == "subscribe" {
				s.announceAll(ctx, q)
			}
		case *redis.Message:
			origin, code, ok := strings.Cut(msg.Payload, " ")
			if ok && origin != s.origin {
				q.add(code)
			}
		}
	}
}

// announceAll queues every room's code, and every chat's (chatChange):
// the lobby refreshes those it holds.
func (s *RedisStore) announceAll(ctx context.Context, q *codeQueue) {
	codes, err := s.rdb.SMembers(ctx, redisRoomIndex).Result()
	if err != nil {
		return // the subscription will fail too and come back here
	}
	q.add(chatChange(""))
	for _, c := range codes {
		q.add(c)
		q.add(chatChange(c))
	}
}

// codeQueue is a set of room codes in arrival order, each at most once.
type codeQueue struct {
	ch     chan struct{} // has a value while codes wait
	mu     sync.Mutex
	codes  []string
	queued map[string]bool
	done   bool
}

func newCodeQueue() *codeQueue {
	return &codeQueue{ch: make(chan struct{}, 1), queued: map[string]bool{}}
}

func (q *codeQueue) signal() {
	select {
	case q.ch <- struct{}{}:
	default:
	}
}

func (q *codeQueue) add(code string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.queued[code] {
		q.queued[code] = true
		q.codes = append(q.codes, code)
	}
	q.signal()
}

func (q *codeQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done = true
	q.signal()
}

// feed hands queued codes to out until the queue closes or ctx ends.
func (q *codeQueue) feed(ctx context.Context, out chan<- string) {
	defer close(out)
	for {
		q.mu.Lock()
		var code string
		if len(q.codes) > 0 {
			code = q.codes[0]
			q.codes = q.codes[1:]
			delete(q.queued, code)
		}
		done := q.done
		q.mu.Unlock()
		if code == "" {
			if done {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-q.ch:
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case out <- code:
		}
	}
}

// optimistic runs fn as one optimistic transaction over keys (WATCH, then
// MULTI/EXEC): when another client changes them between fn's reads and its
// writes, fn runs again on what is there then, up to ten times, and then
// it is ErrConflict. Those who lost a race together wait apart, a few
// random milliseconds more at each try, or they would meet again.
func (s *RedisStore) optimistic(ctx context.Context, fn func(*redis.Tx) error, keys ...string) error {
	for try := range 10 {
		if try > 0 {
			select {
			case <-time.After(time.Duration(mrand.Int64N(int64(try) * int64(2*time.Millisecond)))):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := s.rdb.Watch(ctx, fn, keys...)
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
	}
	return ErrConflict
}
