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

// holdable makes p hold a pipeline whose first call has no script (a
// marker, never sent) in flight: it says so on started and waits for a
// send on release, then sends the rest.
func holdable(p *pipe) (started, release chan struct{}) {
	send := p.batch.Commit
	started, release = make(chan struct{}), make(chan struct{})
	p.batch.Commit = func(calls []*pipeCall) {
		if calls[0].In.sc == nil {
			started <- struct{}{}
			<-release
			if calls = calls[1:]; len(calls) == 0 {
				return
			}
		}
		send(calls)
	}
	return started, release
}

// A move whose context ends while it is queued is taken out, never
// sent; one whose context ends while its pipeline is in flight is told
// at once that it is unconfirmed, and may yet be stored (here it is).
func TestRedisMoveCancelledWhileWaiting(t *testing.T) {
	ctx := context.Background()
	s := openRedis(t, redistest.Start(t))
	queued, inFlight := mustCreate(t, s).Code, mustCreate(t, s).Code
	p := s.pipeFor(s.nodeFor(ctx, metaKey(queued)))
	started, release := holdable(p)
	marker := func() chan struct{} {
		done := make(chan struct{})
		go func() { defer close(done); _, _ = p.batch.Do(ctx, script{}) }()
		return done
	}
	waitQueued := func(n int) {
		for deadline := time.Now().Add(10 * time.Second); p.batch.Queued() != n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d moves queued, not %d, within 10s", p.batch.Queued(), n)
			}
		}
	}
	first := marker()
	<-started // the first pipeline is in flight: what comes now queues
	second := marker()
	waitQueued(1)
	answers := []chan error{make(chan error, 1), make(chan error, 1)}
	cancels := make([]context.CancelFunc, 2)
	for i, code := range []string{queued, inFlight} {
		var cctx context.Context
		cctx, cancels[i] = context.WithCancel(ctx)
		go func() { answers[i] <- s.Append(cctx, code, 0, rec(0, `{"n":0}`, t0), engine.Status{}) }()
		waitQueued(i + 2)
	}
	answer := func(i int) error {
		select {
		case err := <-answers[i]:
			return err
		case <-time.After(10 * time.Second):
			t.Fatalf("move %d: no answer within 10s of its cancel", i)
			return nil
		}
	}
	cancels[0]()
	if err := answer(0); !errors.Is(err, context.Canceled) || errors.Is(err, store.ErrUnconfirmed) {
		t.Errorf("cancelled while queued: %v, want context.Canceled alone", err)
	}
	waitQueued(2)
	release <- struct{}{} // the second marker leads the next pipeline, inFlight's move in it
	<-first
	<-started
	cancels[1]()
	if err := answer(1); !errors.Is(err, store.ErrUnconfirmed) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled in flight: %v, want ErrUnconfirmed and context.Canceled", err)
	}
	release <- struct{}{}
	<-second
	for code, want := range map[string]int{queued: 0, inFlight: 1} {
		if _, got, err := s.Load(ctx, code, 0); err != nil || len(got) != want {
			t.Errorf("room %s holds %d moves (%v), want %d", code, len(got), err, want)
		}
	}
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
	started, release := holdable(p)
	waits := func() int64 { return commandCalls(t, s, "wait") }
	// together appends move at to every room, the stale room's at 3,
	// while a pipeline is in flight, and returns each room's answer and
	// the WAITs Redis ran once it was done.
	together := func(at int) ([]error, int64) {
		go func() { _, _ = p.batch.Do(ctx, script{}) }()
		<-started // what arrives now queues
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
			queued = p.batch.Queued()
		}
		waits0 := waits()
		release <- struct{}{} // the pipeline in flight is done
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
