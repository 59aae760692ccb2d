package lobby

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/room"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// faultyRedis fails the commands on keys whose names contain one of keys
// while failing is set, as a Redis partly away would; the rest reach the
// real Redis.
type faultyRedis struct {
	keys    []string
	failing atomic.Bool
}

var errInjected = errors.New("injected: i/o timeout")

func (f *faultyRedis) hits(cmd redis.Cmder) bool {
	if !f.failing.Load() {
		return false
	}
	for _, a := range cmd.Args() {
		s, _ := a.(string)
		for _, k := range f.keys {
			if strings.Contains(s, k) {
				return true
			}
		}
	}
	return false
}

func (f *faultyRedis) DialHook(next redis.DialHook) redis.DialHook { return next }

func (f *faultyRedis) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if f.hits(cmd) {
			cmd.SetErr(errInjected)
			return errInjected
		}
		return next(ctx, cmd)
	}
}

func (f *faultyRedis) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			if f.hits(cmd) {
				for _, c := range cmds {
					c.SetErr(errInjected)
				}
				return errInjected
			}
		}
		return next(ctx, cmds)
	}
}

// storeErrors counts what an Observer hears of store errors.
type storeErrors struct {
	room.NoObserver
	n atomic.Int64
}

func (s *storeErrors) StoreFailed(error) { s.n.Add(1) }

type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSpace(l.b.String()), "\n")
}

// Redis errors reading who holds a room's seats and counting failed
// lookups reach the store errors metric, every one, and the log once per
// burst of each kind: a guesser cannot turn a Redis fault into a line per
// guess.
func TestRedisFaultsAreCountedAndRateLogged(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	opt, err := redis.ParseURL(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	faults := &faultyRedis{keys: []string{"}:presence", ":misses:"}}
	rdb := redis.NewClient(opt)
	rdb.AddHook(faults)
	st := redisstore.New(rdb)
	t.Cleanup(func() { st.Close() })
	var counted storeErrors
	var log lockedLog
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Observer: &counted,
		Limits: Limits{LookupMisses: 20, LookupWindow: time.Hour}, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	info, err := l.Create(ctx, Player{ID: "key:" + room.NewCode(), Name: "pat"}, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}

	faults.failing.Store(true)
	guesser := Player{ID: "key:" + room.NewCode(), Addr: "addr-" + room.NewCode()}
	// Loading the room reads its presence (1); its lookup reads the
	// guesser's misses, by key and by address (2).
	c, err := l.Watch(ctx, info.Code, guesser)
	if err != nil {
		t.Fatalf("watching a public room with the presence failing: %v", err)
	}
	c.Close()
	const guesses = 200
	for range guesses {
		// Each miss reads and counts, by key and by address: 4 errors.
		if _, err := l.Watch(ctx, "ZZZZZZ", guesser); err == nil || errors.As(err, new(*LimitError)) {
			t.Fatalf("a guess with the counter failing: %v, want a plain miss", err)
		}
	}
	if want := int64(3 + 4*guesses); counted.n.Load() != want {
		t.Errorf("%d store errors counted, want %d", counted.n.Load(), want)
	}
	var lines []string
	for _, l := range log.lines() {
		if strings.Contains(l, "level=WARN") {
			lines = append(lines, l)
		}
	}
	for _, kind := range []string{`msg="seat presence"`, `msg="read failed lookups"`, `msg="count a failed lookup"`} {
		n := 0
		for _, l := range lines {
			if strings.Contains(l, kind) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s logged %d times within the interval, want once", kind, n)
		}
	}
	if len(lines) != 3 || !strings.Contains(lines[0], "injected") {
		t.Errorf("%d store errors made %d log lines:\n%s", counted.n.Load(), len(lines), strings.Join(lines, "\n"))
	}
}

// faultyInstance is an instance whose Redis client goes through faults.
func faultyInstance(t *testing.T, r *redistest.Server, faults *faultyRedis) *instance {
	t.Helper()
	opt, err := redis.ParseURL(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	rdb.AddHook(faults)
	s := redisstore.New(rdb)
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l := New(Config{Store: s, Games: []Game{tallyGame()}, PresenceTTL: testPresenceTTL})
	in := &instance{store: s, lobby: l, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(in.done)
		in.lobby.Run(ctx)
	}()
	return in
}

// A room that hears of another instance's move but cannot read it (its
// Redis fails the read, as in a failover) tries again: its sessions see
// the move once Redis answers, though nothing announces the move again.
func TestRedisFailedCatchUpIsRetried(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	faults := &faultyRedis{keys: []string{"}:moves"}}
	a, b := newInstance(t, r), faultyInstance(t, r, faults)
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	meta, err := a.lobby.Create(ctx, alice, CreateOptions{Seats: 2, Seed: 1, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	ca, err := a.lobby.Join(ctx, meta.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := b.lobby.Join(ctx, meta.Invite(), bob)
	if err != nil {
		t.Fatal(err)
	}
	sa, sb := &session{name: "alice@a", c: ca}, &session{name: "bob@b", c: cb}
	for _, s := range []*session{sa, sb} {
		if _, err := s.await(10*time.Second, func(u Update) bool { return u.Room.Started && u.View != nil }); err != nil {
			t.Fatal(err)
		}
	}
	// Bob plays until it is alice's turn, so the move b misses is hers.
	moves := 0
	for len(sa.view().Legal) == 0 {
		raw, _ := json.Marshal(pick(sb.view().Legal))
		if err := cb.Move(ctx, raw); err != nil {
			t.Fatal(err)
		}
		moves++
		if _, err := sa.await(10*time.Second, atVersion(moves)); err != nil {
			t.Fatal(err)
		}
	}

	faults.failing.Store(true)
	raw, _ := json.Marshal(pick(sa.view().Legal))
	if err := ca.Move(ctx, raw); err != nil {
		t.Fatal(err)
	}
	moves++
	if _, err := sb.await(10*time.Second, func(u Update) bool { return u.Notice != "" }); err != nil {
		t.Fatalf("instance b did not fail to catch up: %v", err)
	}
	faults.failing.Store(false)
	if _, err := sb.await(10*time.Second, func(u Update) bool { return u.Version == moves && u.Notice == "" }); err != nil {
		t.Fatalf("instance b never caught up with alice's move: %v", err)
	}
}
