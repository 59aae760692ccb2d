package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/lobby/store"
)

// Changes implements store.Changes: the codes of the rooms this store
// follows (Follow) that other instances changed, and of every room
// created, reseated, finished or deleted anywhere (the room index's
// channel), until ctx ends or the store closes. Room news travels on
// sharded pub/sub, a channel per room in the room's own slot, so an
// instance hears only the rooms its sessions are in, not every move of
// the whole service. Each channel survives Redis restarts, failovers and
// slot moves; each time it is (re)subscribed its room's code is sent too,
// because announcements made while it was down are lost and only a
// catch-up from the log can stand in for them. Codes waiting to be taken
// are merged, so a busy room costs one catch-up per read, not one per
// move. A store serves one Changes at a time.
func (s *Store) Changes(ctx context.Context) <-chan store.Change {
	out := make(chan store.Change)
	q := newCodeQueue()
	s.news.start(ctx, s, q)
	context.AfterFunc(ctx, q.close)
	go q.feed(ctx, out)
	s.news.add(s, indexChannel, listChange)
	return out
}

// Follow implements store.Changes: this instance holds room code, so it
// hears of the room's changes from now on.
func (s *Store) Follow(code string) { s.news.add(s, roomChannel(code), code) }

// Unfollow implements store.Changes: this instance no longer holds room
// code.
func (s *Store) Unfollow(code string) { s.news.remove(roomChannel(code)) }

// Heard counts the announcements from other instances this store has
// received, to measure what sharded channels save.
func (s *Store) Heard() int64 { return s.heard.Load() }

// listChange is what is queued when the room index's channel is
// (re)subscribed: no room's code (codes are capitals and digits), so the
// lobby reads its lists again.
const listChange = "list"

// change is what a queued announcement stands for, typed for the
// store's contract: the channel's text stays this driver's own.
func change(queued string) store.Change {
	if code, ok := strings.CutPrefix(queued, chatPrefix); ok {
		return store.Change{Kind: store.ChatChange, Code: code}
	}
	if code, ok := strings.CutPrefix(queued, seatsPrefix); ok {
		return store.Change{Kind: store.SeatsChange, Code: code}
	}
	if queued == listChange {
		return store.Change{Kind: store.ListsChange}
	}
	return store.Change{Kind: store.RoomChange, Code: queued}
}

// healthInterval is how long a quiet subscription waits before pinging
// Redis, so a connection that died silently (a partition without a reset)
// is noticed and replaced.
const healthInterval = 3 * time.Second

// errMoved ends a subscription the server dropped: its slot moved to
// another node, where the next one goes.
var errMoved = errors.New("redis dropped a sharded subscription: its slot moved")

// errDemoted ends a subscription made to a node that is now a replica.
var errDemoted = errors.New("redis subscription on a replica: its primary failed over")

// receive follows one subscription until it has to be replaced.
func (s *Store) receive(ctx context.Context, ps *redis.PubSub, sh *shard) error {
	q := s.news.q
	pinged := false
	checked := time.Now()
	for {
		if time.Since(checked) >= healthInterval {
			if err := s.stillPrimary(ctx, sh); err != nil {
				return err
			}
			checked = time.Now()
		}
		msg, err := ps.ReceiveTimeout(ctx, healthInterval)
		var nerr interface{ Timeout() bool }
		switch {
		case err == nil:
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
			// Start over rather than let go-redis resubscribe: it would
			// send every channel in one SSUBSCRIBE, which a cluster node
			// refuses for channels of several slots; and the node may
			// have failed over.
			return err
		}
		pinged = false
		switch msg := msg.(type) {
		case *redis.Subscription:
			code, followed := s.news.subscribed(sh, msg.Channel)
			switch {
			case msg.Kind == "ssubscribe" && followed:
				s.caughtUp(q, code)
			case msg.Kind == "sunsubscribe" && followed:
				return errMoved
			}
		case *redis.Message:
			origin, code, ok := strings.Cut(msg.Payload, " ")
			if ok && origin != s.origin {
				s.heard.Add(1)
				q.add(code)
			}
		}
	}
}

// stillPrimary checks, on a cluster, that sh's node is still a primary.
// A killed primary restarted before it hears that its replica took over
// answers SSUBSCRIBE for its old slots, and once it learns it is a
// replica it keeps those subscriptions without a word; what its new
// primary publishes reaches it only once that primary counts it among
// its replicas (a room's move was lost so in a failover test). Moving to
// the primary resubscribes, which catches the rooms up.
func (s *Store) stillPrimary(ctx context.Context, sh *shard) error {
	node, ok := sh.client.(*redis.Client)
	if _, cluster := s.rdb.(*redis.ClusterClient); !ok || !cluster {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, healthInterval)
	defer cancel()
	role, err := node.Do(ctx, "ROLE").Slice()
	switch {
	case err != nil:
		return fmt.Errorf("redis node's role: %w", err)
	case len(role) == 0 || role[0] != "master":
		return errDemoted
	}
	return nil
}

// caughtUp queues what a (re)subscription stands for: a room and its
// chat, or, for the index, the lists and the lobby's chat.
func (s *Store) caughtUp(q *codeQueue, code string) {
	if code == listChange {
		q.add(listChange)
		q.add(chatChange(""))
		return
	}
	q.add(code)
	q.add(chatChange(code))
	q.add(seatsChange(code))
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

// feed hands queued news to out until the queue closes or ctx ends.
func (q *codeQueue) feed(ctx context.Context, out chan<- store.Change) {
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
		case out <- change(code):
		}
	}
}
