package bolt

import (
	"fmt"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// maxGroup bounds how many writes share one transaction, so a crowd's
// commit stays one of a few pages' writes per room, not one huge one.
const maxGroup = 1000

// group commits the writes that arrive together in one transaction and
// one fsync (group commit). The first writer to find no commit under way
// commits at once, with whatever has queued; writers that arrive while a
// commit is under way queue, and the first of them commits them all when
// it ends. A lone write therefore waits for nothing but its own fsync,
// unlike bbolt's DB.Batch, which holds every write for MaxBatchDelay
// (docs/performance.md, "Group commit of moves"), and a crowd's writes
// share one fsync per commit's time. Every writer returns only once its
// own write is on disk, or has failed.
type group struct {
	db      *bolt.DB
	mu      sync.Mutex
	queue   []*groupCall
	busy    bool         // a writer is committing; the queue waits for it
	commits atomic.Int64 // transactions committed, for the benchmarks
}

type groupCall struct {
	fn   func(*bolt.Tx) error
	err  error
	lead chan bool // true: commit the queue; false: done, err is the answer
}

// update runs fn in a transaction it may share with other writers' and
// returns once that transaction is committed, as DB.Batch does and with
// its contract: fn may run more than once (it must set what it answers
// afresh each time), and an error fn returns fails the whole transaction,
// after which every write in it runs again alone. So an answer that is
// no failure (ErrConflict: the room's log moved on) is told through a
// variable fn captures, and fn returns nil, having written nothing.
func (g *group) update(fn func(*bolt.Tx) error) error {
	c := &groupCall{fn: fn, lead: make(chan bool, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if g.busy {
		g.mu.Unlock()
		if !<-c.lead {
			return c.err
		}
		g.mu.Lock() // the last leader handed the queue to c
	}
	g.busy = true
	n := min(len(g.queue), maxGroup)
	calls := g.queue[:n:n]
	g.queue = g.queue[n:]
	g.mu.Unlock()

	g.commit(calls)

	g.mu.Lock()
	if len(g.queue) > 0 {
		g.queue[0].lead <- true // busy stays set: the lead passes on
	} else {
		g.busy = false
		g.queue = nil
	}
	g.mu.Unlock()
	for _, o := range calls {
		if o != c {
			o.lead <- false
		}
	}
	return c.err
}

// commit runs calls in one transaction and sets each one's err. Should
// the transaction fail (a function's error, or the commit's), each runs
// again in a transaction of its own, so one write's failure is its
// writer's alone.
func (g *group) commit(calls []*groupCall) {
	err := g.db.Update(func(tx *bolt.Tx) error {
		for _, c := range calls {
			if err := safely(c.fn, tx); err != nil {
				return err
			}
		}
		tx.OnCommit(func() { g.commits.Add(1) })
		return nil
	})
	if err == nil || len(calls) == 1 {
		for _, c := range calls {
			c.err = err
		}
		return
	}
	for _, c := range calls {
		c.err = g.db.Update(func(tx *bolt.Tx) error {
			tx.OnCommit(func() { g.commits.Add(1) })
			return safely(c.fn, tx)
		})
	}
}

// safely turns a panic in fn into its error, so a writer's bug fails its
// own write instead of leaving the writers queued behind it waiting.
func safely(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in a store write: %v", p)
		}
	}()
	return fn(tx)
}
