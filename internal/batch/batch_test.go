package batch_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/batch"
)

var errRefused = errors.New("refused")

// panicIn is the call a commit panics on.
const panicIn = 1 << 20

// committer is a Batcher over ints whose commit records each group it
// commits and answers each call with its own Out and Err: In*10, and
// errRefused for multiples of 3. A commit holding panicIn panics. A commit holding a negative In stays
// under way, once it has said so on started, until a send on release.
type committer struct {
	b        batch.Batcher[int, int]
	mu       sync.Mutex
	groups   [][]int
	inCommit atomic.Bool
	started  chan struct{}
	release  chan struct{}
}

func newCommitter(t *testing.T, max int, unconfirmed error) *committer {
	k := &committer{started: make(chan struct{}), release: make(chan struct{})}
	k.b = batch.Batcher[int, int]{Max: max, Unconfirmed: unconfirmed, Commit: func(calls []*batch.Call[int, int]) {
		if k.inCommit.Swap(true) {
			t.Error("two commits at once")
		}
		defer k.inCommit.Store(false)
		ins := []int{}
		for _, c := range calls {
			ins = append(ins, c.In)
			c.Out = c.In * 10
			if c.In%3 == 0 {
				c.Err = fmt.Errorf("call %d: %w", c.In, errRefused)
			}
		}
		k.mu.Lock()
		k.groups = append(k.groups, ins)
		k.mu.Unlock()
		if slices.Contains(ins, panicIn) {
			panic("a bug in the commit")
		}
		runtime.Gosched() // as a commit's I/O would: others arrive meanwhile
		if slices.Min(ins) < 0 {
			k.started <- struct{}{}
			<-k.release
		}
	}}
	return k
}

// hold starts a commit of -1 that lasts until the returned release is
// called, so the calls that come meanwhile queue.
func (k *committer) hold() (release func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = k.b.Do(context.Background(), -1)
	}()
	<-k.started
	return func() { k.release <- struct{}{}; <-done }
}

// queue starts a Do of each of ins, one after another in that order,
// each once the one before it has queued, and returns their answers
// once all are in.
func (k *committer) queue(t *testing.T, ctxs []context.Context, ins ...int) (wait func() ([]int, []error)) {
	t.Helper()
	outs, errs := make([]int, len(ins)), make([]error, len(ins))
	var wg sync.WaitGroup
	for i, in := range ins {
		before := k.b.Queued()
		wg.Go(func() { outs[i], errs[i] = k.b.Do(ctxs[i], in) })
		waitFor(t, func() bool { return k.b.Queued() > before })
	}
	return func() ([]int, []error) { wg.Wait(); return outs, errs }
}

func (k *committer) committed() [][]int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.groups)
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("not within 10s")
		}
	}
}

func background(n int) []context.Context {
	ctxs := make([]context.Context, n)
	for i := range ctxs {
		ctxs[i] = context.Background()
	}
	return ctxs
}

// A lone call commits at once, alone, and gets its answer.
func TestLoneCallCommitsAtOnce(t *testing.T) {
	k := newCommitter(t, 0, nil)
	out, err := k.b.Do(context.Background(), 4)
	if out != 40 || err != nil {
		t.Errorf("Do(4) = %d, %v; want 40, nil", out, err)
	}
	if got := k.committed(); !slices.EqualFunc(got, [][]int{{4}}, slices.Equal) {
		t.Errorf("commits %v, want [[4]]", got)
	}
}

// Calls that arrive while a commit is under way share the next one, in
// the order they arrived, at most Max to a commit, and each caller gets
// its own answer: one's error is not another's.
func TestCallsArrivingTogetherShareTheNextCommit(t *testing.T) {
	k := newCommitter(t, 4, nil)
	release := k.hold()
	ins := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	wait := k.queue(t, background(len(ins)), ins...)
	release()
	outs, errs := wait()
	for i, in := range ins {
		if outs[i] != in*10 {
			t.Errorf("call %d: Out %d, want %d", in, outs[i], in*10)
		}
		if refused := in%3 == 0; errors.Is(errs[i], errRefused) != refused {
			t.Errorf("call %d: %v, want refused %v", in, errs[i], refused)
		}
	}
	want := [][]int{{-1}, {1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10}}
	if got := k.committed(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("commits %v, want %v", got, want)
	}
}

// A caller whose context ends while its call is queued withdraws it at
// once: the call is never committed, and the others are, as they were.
func TestCancelledWhileQueuedWithdraws(t *testing.T) {
	k := newCommitter(t, 0, nil)
	release := k.hold()
	ctxs := background(3)
	ctx, cancel := context.WithCancel(context.Background())
	ctxs[0] = ctx // the first queued: the one the lead would go to
	wait := k.queue(t, ctxs, 1, 2, 4)
	cancel()
	waitFor(t, func() bool { return k.b.Queued() == 2 })
	release()
	outs, errs := wait()
	if outs[0] != 0 || !errors.Is(errs[0], context.Canceled) {
		t.Errorf("withdrawn call: %d, %v; want 0, context.Canceled", outs[0], errs[0])
	}
	for i := 1; i < 3; i++ {
		if errs[i] != nil || outs[i] == 0 {
			t.Errorf("call %d: %d, %v", i, outs[i], errs[i])
		}
	}
	want := [][]int{{-1}, {2, 4}}
	if got := k.committed(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("commits %v, want %v", got, want)
	}
}

// A caller whose context ends while its call is in a commit is told
// the write is unconfirmed at once when the batcher says so (while the
// commit is still under way), and otherwise waits for the commit's
// answer.
func TestCancelledInACommit(t *testing.T) {
	errUnsure := errors.New("unconfirmed")
	for _, unconfirmed := range []error{errUnsure, nil} {
		k := newCommitter(t, 0, unconfirmed)
		release := k.hold()
		wait := k.queue(t, background(1), 7)
		ctx, cancel := context.WithCancel(context.Background())
		type answer struct {
			out int
			err error
		}
		got := make(chan answer, 1)
		go func() {
			out, err := k.b.Do(ctx, -2)
			got <- answer{out, err}
		}()
		waitFor(t, func() bool { return k.b.Queued() == 2 })
		release()   // 7 leads the next commit, with -2 in it
		<-k.started // that commit is under way
		cancel()
		if unconfirmed != nil {
			select {
			case a := <-got:
				if !errors.Is(a.err, errUnsure) || !errors.Is(a.err, context.Canceled) {
					t.Errorf("cancelled in a commit: %d, %v; want unconfirmed and context.Canceled", a.out, a.err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("cancelled in a commit: not told within 10s, while it was under way")
			}
		}
		k.release <- struct{}{}
		if unconfirmed == nil {
			if a := <-got; a.out != -20 || a.err != nil {
				t.Errorf("cancelled in a commit, waiting: %d, %v; want the commit's answer -20, nil", a.out, a.err)
			}
		}
		if outs, errs := wait(); outs[0] != 70 || errs[0] != nil {
			t.Errorf("the leader: %d, %v; want 70, nil", outs[0], errs[0])
		}
	}
}

// A commit that panics does not leave the writers behind it waiting: the
// panic goes on in the goroutine that committed, the calls that shared
// the commit are told it panicked, and the next call queued commits.
func TestPanickedCommitPassesTheLead(t *testing.T) {
	errUnsure := errors.New("unconfirmed")
	for _, unconfirmed := range []error{nil, errUnsure} {
		t.Run(fmt.Sprint(unconfirmed), func(t *testing.T) { panickedCommit(t, unconfirmed) })
	}
}

func panickedCommit(t *testing.T, unconfirmed error) {
	k := newCommitter(t, 2, unconfirmed)
	release := k.hold()
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		_, _ = k.b.Do(context.Background(), panicIn)
	}()
	waitFor(t, func() bool { return k.b.Queued() == 1 })
	wait := k.queue(t, background(2), 4, 5)
	release() // panicIn leads a commit of itself and 4 (Max 2), which panics
	if p := <-panicked; p != "a bug in the commit" {
		t.Errorf("the committing writer recovered %v; want the commit's panic", p)
	}
	answered := make(chan struct{})
	var outs []int
	var errs []error
	go func() { outs, errs = wait(); close(answered) }()
	select {
	case <-answered:
	case <-time.After(10 * time.Second):
		t.Fatal("the writers behind a panicked commit were not answered within 10s")
	}
	if !errors.Is(errs[0], batch.ErrCommitPanicked) || unconfirmed != nil && !errors.Is(errs[0], unconfirmed) {
		t.Errorf("a call that shared the panicked commit: %d, %v; want ErrCommitPanicked (and %v)", outs[0], errs[0], unconfirmed)
	}
	if outs[1] != 50 || errs[1] != nil {
		t.Errorf("the call queued behind it: %d, %v; want its own commit's 50, nil", outs[1], errs[1])
	}
	if got := k.committed(); !slices.EqualFunc(got, [][]int{{-1}, {panicIn, 4}, {5}}, slices.Equal) {
		t.Errorf("commits %v; want [[-1] [%d 4] [5]]", got, panicIn)
	}
}

// Many callers at once, some cancelling at random moments: no two
// commits overlap, a call withdrawn is never committed, and every call
// answered was committed exactly once and got its own answer.
func TestManyCallersSomeCancelling(t *testing.T) {
	errUnsure := errors.New("unconfirmed")
	k := newCommitter(t, 16, errUnsure)
	const callers, each = 8, 300
	errs := make([]error, callers*each)
	outs := make([]int, callers*each)
	var wg sync.WaitGroup
	for g := range callers {
		wg.Go(func() {
			for i := range each {
				in := g*each + i + 1
				ctx, cancel := context.WithCancel(context.Background())
				if rand.IntN(4) == 0 {
					go cancel()
				}
				outs[in-1], errs[in-1] = k.b.Do(ctx, in)
				cancel()
			}
		})
	}
	wg.Wait()
	times := map[int]int{}
	for _, group := range k.committed() {
		for _, in := range group {
			times[in]++
		}
	}
	withdrawn := 0
	for i, err := range errs {
		in := i + 1
		switch {
		case errors.Is(err, errUnsure):
			if times[in] != 1 {
				t.Errorf("call %d, unconfirmed: committed %d times, want once (it was in a commit)", in, times[in])
			}
		case errors.Is(err, context.Canceled):
			withdrawn++
			if times[in] != 0 {
				t.Errorf("call %d, withdrawn: committed %d times", in, times[in])
			}
		default:
			if times[in] != 1 || outs[i] != in*10 || errors.Is(err, errRefused) != (in%3 == 0) {
				t.Errorf("call %d: committed %d times, answered %d, %v", in, times[in], outs[i], err)
			}
		}
	}
	t.Logf("%d calls, %d commits, %d withdrawn", len(errs), len(k.committed()), withdrawn)
}
