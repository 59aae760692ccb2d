package redis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// replication is how a room's change waits for replicas before it counts
// as done. Redis replicates after it answers, so a primary that dies just
// after a write takes with it whatever its replicas had not received: a
// move already shown to its players would be gone after the failover.
// WAIT (or WAITAOF, where the server has it) closes that window.
type replication struct {
	n int // replicas to wait for; 0 waits for none
	// wait is how long to wait for them; it stays below the client's
	// read timeout (3s by default), which also bounds the pipeline.
	wait time.Duration
	// aof is set while the primary takes WAITAOF (Redis 7.2, with its
	// append-only file on): the change is then on the primary's disk and
	// on n replicas' disks, not only in their memory.
	aof atomic.Bool
}

// primary is a client that reaches the primary: a node's own on a
// cluster.
type primary interface {
	Do(ctx context.Context, args ...any) *redis.Cmd
}

// probe finds out whether the primary takes WAITAOF. An older Redis does
// not know it and one without an append-only file refuses it; both get
// WAIT.
func (r *replication) probe(ctx context.Context, node primary) {
	if r.n == 0 {
		return
	}
	r.aof.Store(node.Do(ctx, "WAITAOF", 1, 0, 1).Err() == nil)
}

// write runs one of the room scripts and, with replicas to wait for,
// WAIT in the same pipeline: WAIT counts the replicas that have every
// write its own connection made, so it must follow the script on that
// connection. A script that did its write (1) but reached too few
// replicas is store.ErrUnconfirmed: it may stand or be lost in a
// failover, and the room must not tell its player either way.
func (s *Store) write(ctx context.Context, sc *redis.Script, keys []string, args ...any) (int, error) {
	if s.repl.n == 0 {
		n, err := sc.Run(ctx, s.rdb, keys, args...).Int()
		return n, unsure(err)
	}
	node := s.nodeFor(ctx, keys[0])
	n, acked, err := s.writeWaiting(ctx, node, sc, false, keys, args)
	if next := s.redirected(ctx, err); next != nil {
		node = next // the slot moved: to where the cluster says it is
		n, acked, err = s.writeWaiting(ctx, node, sc, false, keys, args)
	}
	if redis.HasErrorPrefix(err, "NOSCRIPT") {
		// A primary promoted since the script was last sent (or a
		// restarted one) has not cached it.
		n, acked, err = s.writeWaiting(ctx, node, sc, true, keys, args)
	}
	if err != nil {
		return 0, unsure(err)
	}
	return s.repl.confirmed(n, acked)
}

// unsure marks err as store.ErrUnconfirmed when the script may have run
// all the same: the connection failed, or the wait for the answer ran
// out, after the script was sent (a Redis stopped, not dead, runs it
// when it wakes). A refused dial, or an answer that is an error, means
// it did not run.
func unsure(err error) error {
	var reply redis.Error
	var op *net.OpError
	switch {
	case err == nil, errors.As(err, &reply), errors.As(err, &op) && op.Op == "dial",
		errors.Is(err, redis.ErrPoolTimeout), errors.Is(err, redis.ErrClosed):
		return err
	}
	return fmt.Errorf("%w: %w", store.ErrUnconfirmed, err)
}

// writeWaiting pipelines the script (by its hash, or whole when send)
// and the wait for replicas on node, and returns the script's answer
// and how many replicas acknowledged.
func (s *Store) writeWaiting(ctx context.Context, node redis.Cmdable, sc *redis.Script, send bool, keys []string, args []any) (n, acked int, err error) {
	var res *redis.Cmd
	var wait *redis.Cmd
	aof := s.repl.aof.Load()
	_, _ = node.Pipelined(ctx, func(p redis.Pipeliner) error {
		if send {
			res = sc.Eval(ctx, p, keys, args...)
		} else {
			res = sc.EvalSha(ctx, p, keys, args...)
		}
		wait = s.repl.waitCmd(ctx, p, aof)
		return nil
	})
	if n, err = res.Int(); err != nil {
		return 0, 0, err
	}
	return n, s.repl.acked(wait, aof), nil
}

// waitCmd queues the wait for replicas on p: WAITAOF when aof, else WAIT.
func (r *replication) waitCmd(ctx context.Context, p redis.Pipeliner, aof bool) *redis.Cmd {
	if aof {
		return p.Do(ctx, "WAITAOF", 1, r.n, r.wait.Milliseconds())
	}
	return p.Do(ctx, "WAIT", r.n, r.wait.Milliseconds())
}

// acked is how many replicas wait's answer counts. It is read once the
// write is made (or was already): a failed wait leaves the write
// unconfirmed, never undone.
func (r *replication) acked(wait *redis.Cmd, aof bool) int {
	if aof {
		v, err := wait.Int64Slice()
		if err != nil || len(v) != 2 {
			// A primary promoted since the probe may not take WAITAOF:
			// WAIT from the next change on.
			r.aof.Store(false)
			return 0
		}
		return int(v[1])
	}
	v, err := wait.Int()
	if err != nil {
		return 0
	}
	return int(v)
}

// confirmed is a script's answer n once acked replicas hold it: a write
// made (1) that reached too few is store.ErrUnconfirmed.
func (r *replication) confirmed(n, acked int) (int, error) {
	if n == 1 && acked < r.n {
		return 0, fmt.Errorf("%w: %d of %d within %s", store.ErrUnconfirmed, acked, r.n, r.wait)
	}
	return n, nil
}
