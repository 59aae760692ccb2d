package redis

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/internal/batch"
	"github.com/smokestack/smokestack/lobby/store"
)

// maxPipe bounds how many moves go in one pipeline, so one crowd's
// scripts do not hold Redis from its other clients for long.
const maxPipe = 512

// pipe sends the moves that arrive together to one Redis node in one
// pipeline, with one WAIT for its replicas after them all (group
// commit, internal/batch). A lone move waits for nothing but its own
// round trip; a crowd's moves share the round trip, Redis's fsync
// (appendfsync always writes the file once for what one pass of its
// event loop ran) and the WAIT. Each move's answer is its own, as write
// would give it. A move whose context ends while it is queued is taken
// out, never sent; one in flight may yet be stored, so it is
// unconfirmed.
type pipe struct {
	s     *Store
	node  redis.Cmdable // where the room's slot is served (nodeFor)
	batch batch.Batcher[script, int]
}

// script is one move's call of a script: what write is given.
type script struct {
	sc   *redis.Script
	keys []string
	args []any
}

type pipeCall = batch.Call[script, int]

// pipeFor is the pipe to node, made on first use. A cluster's node is
// the client the cluster client holds for it now; should it make a new
// one (the node left and came back), that one gets a pipe of its own.
func (s *Store) pipeFor(node redis.Cmdable) *pipe {
	if p, ok := s.pipes.Load(node); ok {
		return p.(*pipe)
	}
	p := &pipe{s: s, node: node}
	p.batch = batch.Batcher[script, int]{Commit: p.send, Max: maxPipe, Unconfirmed: store.ErrUnconfirmed}
	actual, _ := s.pipes.LoadOrStore(node, p)
	return actual.(*pipe)
}

// writeTogether is write for the room's scripts that many rooms send
// at once (Append): it goes in its node's next pipeline.
func (s *Store) writeTogether(ctx context.Context, sc *redis.Script, keys []string, args ...any) (int, error) {
	return s.pipeFor(s.nodeFor(ctx, keys[0])).batch.Do(ctx, script{sc, keys, args})
}

// send pipelines calls' scripts, by their hashes, and the wait for
// replicas on the pipe's node, and sets each call's answer. Scripts
// refused with NOSCRIPT (a promoted or restarted primary has not cached
// them) ran nowhere: they are loaded and the refused calls sent again.
func (p *pipe) send(calls []*pipeCall) {
	ctx, cancel := batchContext(calls)
	defer cancel()
	if len(calls) == 1 { // alone: as it went before there were pipes
		c := calls[0]
		c.Out, c.Err = p.s.write(ctx, c.In.sc, c.In.keys, c.In.args...)
		return
	}
	unknown := p.pipeline(ctx, calls)
	if len(unknown) == 0 {
		return
	}
	for _, c := range unknown {
		if err := c.In.sc.Load(ctx, p.node).Err(); err != nil {
			for _, c := range unknown {
				c.Out, c.Err = 0, unsure(err)
			}
			return
		}
	}
	for _, c := range p.pipeline(ctx, unknown) {
		c.Out, c.Err = p.s.write(ctx, c.In.sc, c.In.keys, c.In.args...) // flushed again: alone
	}
}

// pipeline sends calls in one pipeline and sets their answers, but for
// those refused with NOSCRIPT, which it returns. One refused with MOVED
// (its slot moved) goes again alone by write, which follows it.
func (p *pipe) pipeline(ctx context.Context, calls []*pipeCall) (unknown []*pipeCall) {
	s := p.s
	res := make([]*redis.Cmd, len(calls))
	var wait *redis.Cmd
	aof := s.repl.aof.Load()
	_, _ = p.node.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i, c := range calls {
			res[i] = c.In.sc.EvalSha(ctx, pl, c.In.keys, c.In.args...)
		}
		if s.repl.n > 0 {
			wait = s.repl.waitCmd(ctx, pl, aof)
		}
		return nil
	})
	acked := 0
	if s.repl.n > 0 {
		acked = s.repl.acked(wait, aof)
	}
	for i, c := range calls {
		n, err := res[i].Int()
		switch {
		case redis.HasErrorPrefix(err, "NOSCRIPT"):
			unknown = append(unknown, c)
		case redis.HasErrorPrefix(err, "MOVED"):
			c.Out, c.Err = s.write(ctx, c.In.sc, c.In.keys, c.In.args...)
		case err != nil:
			c.Out, c.Err = 0, unsure(err)
		default:
			c.Out, c.Err = s.repl.confirmed(n, acked)
		}
	}
	return unknown
}

// batchContext bounds a pipeline by the latest of its callers'
// deadlines, or by none when one has none (the client's read timeout
// then does), and is not cancelled with any of theirs: the moves of the
// others are in it.
func batchContext(calls []*pipeCall) (context.Context, context.CancelFunc) {
	var last time.Time
	for _, c := range calls {
		d, ok := c.Ctx.Deadline()
		if !ok {
			return context.WithCancel(context.WithoutCancel(calls[0].Ctx))
		}
		if d.After(last) {
			last = d
		}
	}
	return context.WithDeadline(context.WithoutCancel(calls[0].Ctx), last)
}
