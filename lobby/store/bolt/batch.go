package bolt

import (
	"context"
	"fmt"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/internal/batch"
)

// maxGroup bounds how many writes share one transaction, so a crowd's
// commit stays one of a few pages' writes per room, not one huge one.
const maxGroup = 1000

// group commits the writes that arrive together in one transaction and
// one fsync (group commit, internal/batch): a lone write waits for
// nothing but its own fsync, unlike bbolt's DB.Batch, which holds every
// write for MaxBatchDelay (docs/performance.md, "Group commit of
// moves"), and a crowd's writes share one fsync per commit's time. Every
// writer returns only once its own write is on disk, or has failed. A
// writer whose context ends while its write is queued withdraws it; one
// already in a commit waits for it, as a local commit soon ends.
type group struct {
	db      *bolt.DB
	batch   batch.Batcher[func(*bolt.Tx) error, struct{}]
	commits atomic.Int64 // transactions committed, for the benchmarks
}

func newGroup(db *bolt.DB) *group {
	g := &group{db: db}
	g.batch = batch.Batcher[func(*bolt.Tx) error, struct{}]{Commit: g.commit, Max: maxGroup}
	return g
}

// update runs fn in a transaction it may share with other writers' and
// returns once that transaction is committed, as DB.Batch does and with
// its contract: fn may run more than once (it must set what it answers
// afresh each time), and an error fn returns fails the whole transaction,
// after which every write in it runs again alone. So an answer that is
// no failure (ErrConflict: the room's log moved on) is told through a
// variable fn captures, and fn returns nil, having written nothing.
func (g *group) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	_, err := g.batch.Do(ctx, fn)
	return err
}

// commit runs calls in one transaction and sets each one's Err. Should
// the transaction fail (a function's error, or the commit's), each runs
// again in a transaction of its own, so one write's failure is its
// writer's alone.
func (g *group) commit(calls []*batch.Call[func(*bolt.Tx) error, struct{}]) {
	err := g.db.Update(func(tx *bolt.Tx) error {
		for _, c := range calls {
			if err := safely(c.In, tx); err != nil {
				return err
			}
		}
		tx.OnCommit(func() { g.commits.Add(1) })
		return nil
	})
	if err == nil || len(calls) == 1 {
		for _, c := range calls {
			c.Err = err
		}
		return
	}
	for _, c := range calls {
		c.Err = g.db.Update(func(tx *bolt.Tx) error {
			tx.OnCommit(func() { g.commits.Add(1) })
			return safely(c.In, tx)
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
