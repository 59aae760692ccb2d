package redis

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// maxPipe bounds how many moves go in one pipeline, so one crowd's
// scripts do not hold Redis from its other clients for long.
const maxPipe = 512

// pipe sends the moves that arrive together to one Redis node in one
// pipeline, with one WAIT for its replicas after them all (group
// commit). The first move to find no pipeline in flight goes at once,
// with what has queued; the moves that arrive while a pipeline is in
// flight queue, and the first of them sends them all when it returns.
// A lone move waits for nothing but its own round trip; a crowd's moves
// share the round trip, Redis's fsync (appendfsync always writes the
// file once for what one pass of its event loop ran) and the WAIT.
// Each move's answer is its own, as write would give it.
type pipe struct {
	s     *Store
	node  redis.Cmdable // where the room's slot is served (nodeFor)
	mu    sync.Mutex
	queue []*pipeCall
	busy  bool // a pipeline is in flight; the queue waits for it
}

type pipeCall struct {
	ctx   context.Context
	sc    *redis.Script
	keys  []string
	args  []any
	n     int
	err   error
	taken bool      // in a pipeline: its caller cannot take it back
	lead  chan bool // true: send the queue; false: done, n and err are the answer
}

// pipeFor is the pipe to node, made on first use. A cluster's node is
// the client the cluster client holds for it now; should it make a new
// one (the node left and came back), that one gets a pipe of its own.
func (s *Store) pipeFor(node redis.Cmdable) *pipe {
	if p, ok := s.pipes.Load(node); ok {
		return p.(*pipe)
	}
	p, _ := s.pipes.LoadOrStore(node, &pipe{s: s, node: node})
	return p.(*pipe)
}

// writeTogether is write for the room's scripts that many rooms send
// at once (Append): it goes in its node's next pipeline.
func (s *Store) writeTogether(ctx context.Context, sc *redis.Script, keys []string, args ...any) (int, error) {
	c := &pipeCall{ctx: ctx, sc: sc, keys: keys, args: args, lead: make(chan bool, 1)}
	return s.pipeFor(s.nodeFor(ctx, keys[0])).do(c)
}

func (p *pipe) do(c *pipeCall) (int, error) {
	p.mu.Lock()
	p.queue = append(p.queue, c)
	if p.busy {
		if lead, n, err := p.wait(c); !lead {
			return n, err
		}
	}
	p.busy = true
	n := min(len(p.queue), maxPipe)
	calls := p.queue[:n:n]
	p.queue = p.queue[n:]
	for _, o := range calls {
		o.taken = true
	}
	p.mu.Unlock()

	p.send(calls)

	p.mu.Lock()
	if len(p.queue) > 0 {
		p.queue[0].lead <- true // busy stays set: the lead passes on
	} else {
		p.busy = false
		p.queue = nil
	}
	p.mu.Unlock()
	for _, o := range calls {
		if o != c {
			o.lead <- false
		}
	}
	return c.n, c.err
}

// wait, entered with p.mu held, waits until c's answer is in (n, err)
// or c is to send the queue (lead, and p.mu held again). A caller whose
// context ends first gives up: a move still queued is taken out, never
// sent; one in flight may yet be stored, so it is unconfirmed. A caller
// handed the lead as it gives up sends all the same, as the moves queued
// behind it wait for it.
func (p *pipe) wait(c *pipeCall) (lead bool, n int, err error) {
	p.mu.Unlock()
	select {
	case lead = <-c.lead:
	case <-c.ctx.Done():
		p.mu.Lock()
		select {
		case lead = <-c.lead: // the lead is handed over under p.mu
		default:
			defer p.mu.Unlock()
			if c.taken {
				return false, 0, fmt.Errorf("%w: %w", store.ErrUnconfirmed, c.ctx.Err())
			}
			p.queue = slices.DeleteFunc(p.queue, func(o *pipeCall) bool { return o == c })
			return false, 0, c.ctx.Err()
		}
		p.mu.Unlock()
	}
	if lead {
		p.mu.Lock()
		return true, 0, nil
	}
	return false, c.n, c.err
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
		c.n, c.err = p.s.write(ctx, c.sc, c.keys, c.args...)
		return
	}
	unknown := p.pipeline(ctx, calls)
	if len(unknown) == 0 {
		return
	}
	for _, c := range unknown {
		if err := c.sc.Load(ctx, p.node).Err(); err != nil {
			for _, c := range unknown {
				c.n, c.err = 0, unsure(err)
			}
			return
		}
	}
	for _, c := range p.pipeline(ctx, unknown) {
		c.n, c.err = p.s.write(ctx, c.sc, c.keys, c.args...) // flushed again: alone
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
			res[i] = c.sc.EvalSha(ctx, pl, c.keys, c.args...)
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
			c.n, c.err = s.write(ctx, c.sc, c.keys, c.args...)
		case err != nil:
			c.n, c.err = 0, unsure(err)
		default:
			c.n, c.err = s.repl.confirmed(n, acked)
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
		d, ok := c.ctx.Deadline()
		if !ok {
			return context.WithCancel(context.WithoutCancel(calls[0].ctx))
		}
		if d.After(last) {
			last = d
		}
	}
	return context.WithDeadline(context.WithoutCancel(calls[0].ctx), last)
}
