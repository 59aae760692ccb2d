package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Changes implements store.Changes: the codes of rooms changed by other
// instances, until ctx ends or the store closes. The subscription survives
// Redis restarts and network trouble; each time it is (re)established it
// also sends every room's code, because announcements made while it was
// down are lost and only a catch-up from the log can stand in for them.
// Codes waiting to be taken are merged, so a busy room costs one catch-up
// per read, not one per move.
func (s *Store) Changes(ctx context.Context) <-chan string {
	out := make(chan string)
	q := newCodeQueue()
	go s.follow(ctx, q)
	go q.feed(ctx, out)
	return out
}

// healthInterval is how long a quiet subscription waits before pinging
// Redis, so a connection that died silently (a partition without a reset)
// is noticed and replaced.
const healthInterval = 3 * time.Second

func (s *Store) follow(ctx context.Context, q *codeQueue) {
	defer q.close()
	for ctx.Err() == nil {
		err := s.subscribeOnce(ctx, q)
		if errors.Is(err, redis.ErrClosed) {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond): // Redis is away: retry soon, not in a spin
		}
	}
}

// subscribeOnce follows one subscription until it has to be replaced.
func (s *Store) subscribeOnce(ctx context.Context, q *codeQueue) error {
	ps := s.rdb.Subscribe(ctx, redisChannel)
	defer ps.Close()
	stop := context.AfterFunc(ctx, func() { ps.Close() })
	defer stop()
	pinged := false
	failures := 0
	for {
		msg, err := ps.ReceiveTimeout(ctx, healthInterval)
		var nerr interface{ Timeout() bool }
		switch {
		case err == nil:
			failures = 0
		case errors.As(err, &nerr) && nerr.Timeout():
			if pinged {
				return fmt.Errorf("redis subscription silent after ping: %w", err)
			}
			pinged = true
			if err := ps.Ping(ctx); err != nil {
				return err
			}
			continue
		case errors.Is(err, redis.ErrClosed) || ctx.Err() != nil:
			return redis.ErrClosed
		default:
			// go-redis reconnects and resubscribes on the next Receive;
			// after a few failures in a row start over with a pause.
			if failures++; failures > 2 {
				return err
			}
			continue
		}
		pinged = false
		switch msg := msg.(type) {
		case *redis.Subscription:
			if msg.Kind == "subscribe" {
				if err := s.announceAll(ctx, q); err != nil {
					return err // start over: what was missed must be announced
				}
			}
		case *redis.Message:
			origin, code, ok := strings.Cut(msg.Payload, " ")
			if ok && origin != s.origin {
				q.add(code)
			}
		}
	}
}

// announceAll queues every room's code, and every chat's (chatChange):
// the lobby refreshes those it holds. When the room index cannot be read
// (in a failover the new subscription can be up while the client's other
// connections still fail), the caller subscribes again and comes back
// here, rather than follow a subscription that missed changes no one
// will announce again.
func (s *Store) announceAll(ctx context.Context, q *codeQueue) error {
	codes, err := s.rdb.SMembers(ctx, redisRoomIndex).Result()
	if err != nil {
		return err
	}
	q.add(chatChange(""))
	for _, c := range codes {
		q.add(c)
		q.add(chatChange(c))
	}
	return nil
}

// codeQueue is a set of room codes in arrival order, each at most once.
type codeQueue struct {
	ch     chan struct{} // has a value while codes wait
	mu     sync.Mutex
	codes  []string
	queued map[string]bool
	done   bool
}

func newCodeQueue() *codeQueue {
	return &codeQueue{ch: make(chan struct{}, 1), queued: map[string]bool{}}
}

func (q *codeQueue) signal() {
	select {
	case q.ch <- struct{}{}:
	default:
	}
}

func (q *codeQueue) add(code string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.queued[code] {
		q.queued[code] = true
		q.codes = append(q.codes, code)
	}
	q.signal()
}

func (q *codeQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.done = true
	q.signal()
}

// feed hands queued codes to out until the queue closes or ctx ends.
func (q *codeQueue) feed(ctx context.Context, out chan<- string) {
	defer close(out)
	for {
		q.mu.Lock()
		var code string
		if len(q.codes) > 0 {
			code = q.codes[0]
			q.codes = q.codes[1:]
			delete(q.queued, code)
		}
		done := q.done
		q.mu.Unlock()
		if code == "" {
			if done {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-q.ch:
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case out <- code:
		}
	}
}
