package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// moveOf is move at of a room in these tests: its JSON names its index,
// so a log read back shows any move lost, doubled or out of order.
func moveOf(at int) store.Record {
	return rec(at%2, fmt.Sprintf(`{"kind":"take","n":%d}`, at), t0.Add(time.Duration(at)*time.Second))
}

// checkLog fails unless code's log holds moveOf(0), moveOf(1)… in order,
// at least want of them.
func checkLog(t *testing.T, s store.Rooms, code string, want int) {
	t.Helper()
	_, moves, err := s.Load(context.Background(), code, 0)
	if err != nil {
		t.Fatalf("load %s: %v", code, err)
	}
	if len(moves) < want {
		t.Fatalf("room %s holds %d moves, want the %d acknowledged", code, len(moves), want)
	}
	for i, r := range moves {
		if !sameRecord(r, moveOf(i)) {
			t.Fatalf("room %s move %d is %s, want %s", code, i, r.Move, moveOf(i).Move)
		}
	}
}

// appendsTogether: moves of many rooms at once, as a busy instance sends
// them, each get their own answer. A room's stale writer and a missing
// room are refused while the others' moves, which may share their
// transaction, are stored; two writers racing for each move of one room
// store each move once; every room's log is in order.
func appendsTogether(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	const rooms, moves = 32, 12
	codes := make([]string, rooms)
	for i := range codes {
		codes[i] = mustCreate(t, s).Code
	}
	raced := mustCreate(t, s).Code
	var wg sync.WaitGroup
	errs := make(chan error, rooms*moves*4)
	for _, code := range codes {
		wg.Go(func() {
			for at := range moves {
				if err := s.Append(ctx, code, at, moveOf(at), engine.Status{Round: at}); err != nil {
					errs <- fmt.Errorf("room %s move %d: %w", code, at, err)
					return
				}
				// A writer that has not seen move at: refused, alone.
				if err := s.Append(ctx, code, at, moveOf(at+1), engine.Status{}); !errors.Is(err, store.ErrConflict) {
					errs <- fmt.Errorf("room %s stale move %d: %v, want ErrConflict", code, at, err)
				}
				if err := s.Append(ctx, "NOSUCH", at, moveOf(at), engine.Status{}); !errors.Is(err, store.ErrNotFound) {
					errs <- fmt.Errorf("append to a missing room: %v, want ErrNotFound", err)
				}
			}
		})
	}
	var won [moves]atomic.Int32
	for range 2 {
		wg.Go(func() {
			for at := range moves {
				err := s.Append(ctx, raced, at, moveOf(at), engine.Status{})
				switch {
				case err == nil:
					won[at].Add(1)
				case !errors.Is(err, store.ErrConflict):
					errs <- fmt.Errorf("raced room move %d: %w", at, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for at := range won {
		// Both write moveOf(at): one stores it and the other is refused,
		// or, where a driver recognises its own record already there,
		// both are told it is stored. Either way it is in the log once.
		if won[at].Load() == 0 {
			t.Errorf("raced room: nobody stored move %d", at)
		}
	}
	for _, code := range append(codes, raced) {
		checkLog(t, s, code, moves)
		if _, got, _ := s.Load(ctx, code, 0); len(got) != moves {
			t.Errorf("room %s holds %d moves, want %d", code, len(got), moves)
		}
	}
}

// Durable holds a store to its promise that a move it acknowledged is
// kept: rooms append at once until crash, called in the middle, stops the
// store (closes it, kills its server) and returns it reopened. Every move
// acknowledged before, or after on the old store, must be in the reopened
// store, in order; a move that failed may or may not be.
func Durable(t *testing.T, s store.Store, crash func() store.Store) {
	ctx := context.Background()
	const rooms, moves = 48, 400
	codes := make([]string, rooms)
	for i := range codes {
		codes[i] = mustCreate(t, s).Code
	}
	acked := make([]atomic.Int64, rooms)
	var total atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for i, code := range codes {
		wg.Go(func() {
			for at := 0; at < moves && !stop.Load(); at++ {
				if err := s.Append(ctx, code, at, moveOf(at), engine.Status{Round: at}); err != nil {
					return // the store went away: what came before counts
				}
				acked[i].Store(int64(at + 1))
				total.Add(1)
			}
		})
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for total.Load() < rooms*moves/4 {
		select {
		case <-done:
			t.Fatalf("every writer stopped after %d moves, before the crash", total.Load())
		case <-time.After(time.Millisecond): // until a quarter of the moves are in
		}
	}
	reopened := crash()
	stop.Store(true)
	<-done
	if total.Load() == rooms*moves {
		t.Fatalf("every move was stored before the crash: the test crashed nothing")
	}
	for i, code := range codes {
		checkLog(t, reopened, code, int(acked[i].Load()))
	}
	t.Logf("%d moves acknowledged, every one kept", total.Load())
}

// Counters are what BenchAppend reads of a store besides the moves:
// each is optional.
type Counters struct {
	// Counts are counters of the store's (its commits, its server's reads
	// of commands) by name, each reported as name/move.
	Counts map[string]func() int64
	// ServerCPU is the CPU time a store's server (redis-server) has used.
	ServerCPU func() time.Duration
}

// BenchAppend measures moves stored per second and the process's CPU per
// move with rooms appending at once, each its next move as soon as its
// last is stored, as a room does (see docs/performance.md, "Group commit
// of moves"), and what c counts, per move.
func BenchAppend(b *testing.B, s store.Rooms, rooms int, c Counters) {
	ctx := context.Background()
	codes := make([]string, rooms)
	for i := range codes {
		m := testMeta()
		if err := s.Create(ctx, m); err != nil {
			b.Fatal(err)
		}
		codes[i] = m.Code
	}
	counts0 := map[string]int64{}
	for name, count := range c.Counts {
		counts0[name] = count()
	}
	var server0 time.Duration
	if c.ServerCPU != nil {
		server0 = c.ServerCPU()
	}
	cpu0 := cpuTime()
	start := time.Now()
	b.ResetTimer()
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, code := range codes {
		wg.Go(func() {
			for at := 0; next.Add(1) <= int64(b.N); at++ {
				if err := s.Append(ctx, code, at, moveOf(at), engine.Status{Round: at}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(n/time.Since(start).Seconds(), "moves/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/n, "cpu-µs/move")
	for name, count := range c.Counts {
		b.ReportMetric(float64(count()-counts0[name])/n, name+"/move")
	}
	if c.ServerCPU != nil {
		b.ReportMetric(float64((c.ServerCPU()-server0).Microseconds())/n, "server-µs/move")
	}
}

// cpuTime is the CPU time, user and system, this process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
