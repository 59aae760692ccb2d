package redis

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// Every move Append acknowledged is kept when Redis is killed in the
// middle of a crowd's moves and started again from its append-only file.
func TestRedisAcknowledgedMovesSurviveRestart(t *testing.T) {
	r := redistest.Start(t)
	s := openRedis(t, r)
	storetest.Durable(t, s, func() store.Store {
		r.Down()
		r.Up()
		return openRedis(t, r)
	})
}

// Moves of many rooms that queue while a pipeline is in flight go in
// the next one, with one WAIT for the replica after them all, and one
// room's refusal there is that room's answer alone.
func TestRedisMovesArrivingTogetherShareOnePipeline(t *testing.T) {
	ctx := context.Background()
	primary := redistest.StartOwn(t, "a replica of it cannot be started")
	u, err := url.Parse(primary.URL)
	if err != nil {
		t.Fatal(err)
	}
	redistest.StartReplica(t, u.Host)
	s, err := OpenWith(ctx, primary.URL, Options{Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const rooms, stale = 20, 7
	codes := make([]string, rooms)
	for i := range codes {
		codes[i] = mustCreate(t, s).Code
	}
	p := s.pipeFor(s.nodeFor(ctx, metaKey(codes[0])))
	waits := func() int64 { return commandCalls(t, s, "wait") }
	// together appends move at to every room, the stale room's at 3,
	// while a pipeline is in flight, and returns each room's answer and
	// the WAITs Redis ran once it was done.
	together := func(at int) ([]error, int64) {
		p.mu.Lock()
		p.busy = true // what arrives now queues
		p.mu.Unlock()
		errs := make([]error, rooms)
		var wg sync.WaitGroup
		for i, code := range codes {
			at := at
			if i == stale {
				at = 3 // a stale writer: its room's log is not 3 long
			}
			wg.Go(func() { errs[i] = s.Append(ctx, code, at, rec(0, fmt.Sprintf(`{"n":%d}`, at), t0), engine.Status{}) })
		}
		deadline := time.Now().Add(10 * time.Second)
		for queued := 0; queued < rooms; {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d moves queued behind the pipeline in flight within 10s", queued, rooms)
			}
			time.Sleep(time.Millisecond) // until every move has queued
			p.mu.Lock()
			queued = len(p.queue)
			p.mu.Unlock()
		}
		waits0 := waits()
		p.mu.Lock()
		p.queue[0].lead <- true // the pipeline in flight is done
		p.mu.Unlock()
		wg.Wait()
		return errs, waits() - waits0
	}
	check := func(errs []error, moves int) {
		t.Helper()
		for i, err := range errs {
			if i == stale {
				if !errors.Is(err, store.ErrConflict) {
					t.Errorf("stale move: %v, want ErrConflict", err)
				}
				continue
			}
			if err != nil {
				t.Errorf("room %d: %v", i, err)
			}
			if _, got, _ := s.Load(ctx, codes[i], 0); len(got) != moves {
				t.Errorf("room %d holds %d moves, want %d", i, len(got), moves)
			}
		}
	}
	if err := s.Append(ctx, mustCreate(t, s).Code, 0, rec(0, `{"n":0}`, t0), engine.Status{}); err != nil {
		t.Fatal(err) // Redis caches the script
	}
	errs, n := together(0)
	check(errs, 1)
	if n != 1 {
		t.Errorf("%d moves waited for the replica %d times, want once", rooms, n)
	}
	// A restarted or promoted primary has no script cached: the pipeline
	// is refused whole (NOSCRIPT), and sent again once it is loaded.
	if err := s.rdb.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	errs, n = together(1)
	check(errs, 2)
	if n != 2 {
		t.Errorf("after SCRIPT FLUSH, %d moves waited for the replica %d times, want twice", rooms, n)
	}
}
