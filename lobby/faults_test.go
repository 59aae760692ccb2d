package lobby

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/redistest"
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
	noObserver
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
	room, err := l.Create(ctx, Player{ID: "key:" + newCode(), Name: "pat"}, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}

	faults.failing.Store(true)
	guesser := Player{ID: "key:" + newCode(), Addr: "addr-" + newCode()}
	// Loading the room reads its presence (1); its lookup reads the
	// guesser's misses, by key and by address (2).
	c, err := l.Watch(ctx, room.Code, guesser)
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
