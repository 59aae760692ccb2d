// Package batch commits together the writes that arrive together (group
// commit), for the stores: a lone write commits at once, and the writes
// that arrive while a commit is under way share the next one, so a crowd
// pays one commit's cost (an fsync, a round trip) per commit's time, not
// one per write, and nobody waits on a timer.
//
// There is no goroutine of its own: the first writer to find no commit
// under way commits, with what has queued, and when it is done hands the
// lead to the first writer queued behind it.
package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ErrCommitPanicked is the answer of the calls that shared a commit that
// panicked in another writer's goroutine (wrapped in Unconfirmed when
// that is set: their writes may or may not have been made). The panic
// goes on in the goroutine that committed.
var ErrCommitPanicked = errors.New("batch: the commit they shared panicked")

// Call is one writer's write: In is what it asks, and Out and Err its
// answer, which the commit sets, each call's its own.
type Call[In, Out any] struct {
	// Ctx is the writer's. A commit others share must not end with it:
	// bound the commit by it only if it is the call's alone.
	Ctx context.Context
	In  In
	Out Out
	Err error

	taken bool      // in a commit: its writer cannot take it back
	lead  chan bool // true: commit the queue; false: done, the answer is in
}

// Batcher commits the calls of Do in groups. Set its fields before the
// first Do; the zero value with Commit set is ready to use.
type Batcher[In, Out any] struct {
	// Commit commits calls, in the order they arrived, and sets each
	// one's answer. It runs in one writer's goroutine at a time.
	Commit func(calls []*Call[In, Out])
	// Max bounds how many calls share a commit (none when 0), so one
	// crowd's commit stays short.
	Max int
	// Unconfirmed, when set, is what a writer whose context ends while
	// its write is in a commit is told at once (with the context's
	// error): the write may or may not have been made. When unset it
	// waits for the commit's answer, which then comes soon and is sure.
	Unconfirmed error

	mu    sync.Mutex
	queue []*Call[In, Out]
	busy  bool // a writer is committing; the queue waits for it
}

// Do commits in, with the calls that arrive with it, and returns its
// answer once the commit is done. Should ctx end while in is still
// queued, in is taken out, never committed, and Do returns ctx's error.
func (b *Batcher[In, Out]) Do(ctx context.Context, in In) (Out, error) {
	c := &Call[In, Out]{Ctx: ctx, In: in, lead: make(chan bool, 1)}
	b.mu.Lock()
	b.queue = append(b.queue, c)
	if b.busy {
		if lead, out, err := b.wait(c); !lead {
			return out, err
		}
	}
	b.busy = true
	n := len(b.queue)
	if b.Max > 0 {
		n = min(n, b.Max)
	}
	calls := b.queue[:n:n]
	b.queue = b.queue[n:]
	for _, o := range calls {
		o.taken = true
	}
	b.mu.Unlock()

	// Should Commit panic, the lead still passes on and the calls that
	// shared the commit are answered, or every writer of this Batcher
	// would wait for ever behind one bug; the panic itself goes on.
	committed := false
	defer func() {
		if !committed {
			for _, o := range calls {
				o.Err = ErrCommitPanicked
				if b.Unconfirmed != nil {
					o.Err = fmt.Errorf("%w: %w", b.Unconfirmed, ErrCommitPanicked)
				}
			}
			b.done(c, calls)
		}
	}()
	b.Commit(calls)
	committed = true
	b.done(c, calls)
	return c.Out, c.Err
}

// done, by c's writer once its commit of calls is over, hands the lead to
// the first call queued (or leaves the Batcher idle) and wakes the
// writers of calls to their answers.
func (b *Batcher[In, Out]) done(c *Call[In, Out], calls []*Call[In, Out]) {
	b.mu.Lock()
	if len(b.queue) > 0 {
		b.queue[0].lead <- true // busy stays set: the lead passes on
	} else {
		b.busy = false
		b.queue = nil
	}
	b.mu.Unlock()
	for _, o := range calls {
		if o != c {
			o.lead <- false
		}
	}
}

// wait, entered with b.mu held, waits until c's answer is in or c is to
// commit the queue (lead, and b.mu held again). A writer whose context
// ends first withdraws a call still queued; one in a commit is told
// Unconfirmed or waits on. A writer handed the lead as its context ends
// commits all the same, as the calls queued behind it wait for it.
func (b *Batcher[In, Out]) wait(c *Call[In, Out]) (lead bool, out Out, err error) {
	b.mu.Unlock()
	select {
	case lead = <-c.lead:
	case <-c.Ctx.Done():
		b.mu.Lock()
		select {
		case lead = <-c.lead: // the lead is handed over under b.mu
			b.mu.Unlock()
		default:
			if !c.taken {
				b.queue = slices.DeleteFunc(b.queue, func(o *Call[In, Out]) bool { return o == c })
				b.mu.Unlock()
				return false, out, c.Ctx.Err()
			}
			b.mu.Unlock()
			if b.Unconfirmed != nil {
				return false, out, fmt.Errorf("%w: %w", b.Unconfirmed, c.Ctx.Err())
			}
			lead = <-c.lead // false: a call in a commit is never handed the lead
		}
	}
	if lead {
		b.mu.Lock()
		return true, out, nil
	}
	return false, c.Out, c.Err
}

// Queued is how many calls wait for the next commit.
func (b *Batcher[In, Out]) Queued() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}
