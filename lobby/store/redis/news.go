package redis

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// news is the store's sharded subscriptions: one go-redis PubSub per
// Redis node serving followed channels (one in all on a single node), so
// an instance holding rooms in thousands of slots still holds a handful
// of connections. Each channel is subscribed with an SSUBSCRIBE of its
// own, as one must keep to one slot; when a subscription fails (a
// failover, a slot moved, Redis away) its channels are grouped again by
// the node serving each now and subscribed afresh.
type news struct {
	mu     sync.Mutex
	ctx    context.Context // Changes' context; nil before it starts
	q      *codeQueue
	shards map[string]*shard // by node address ("" on a single node)
	closed bool
}

// shard is the followed channels served by one node, and their
// subscription.
type shard struct {
	node     string
	client   subscriber        // nil when the node could not be found
	channels map[string]string // channel -> the code its (re)subscription sends
	ps       *redis.PubSub     // nil until its listener opens one
}

// subscriber is a client that makes sharded subscriptions: the single
// node's, or one cluster node's.
type subscriber interface {
	SSubscribe(ctx context.Context, channels ...string) *redis.PubSub
}

// unresolved is the shard of channels whose node the cluster could not
// name: its listener waits a moment and groups them again.
const unresolved = "?"

func (n *news) start(ctx context.Context, s *Store, q *codeQueue) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.ctx, n.q = ctx, q
	for _, sh := range n.shards {
		go s.listen(ctx, sh)
	}
}

// nodeOf names the node serving channel now, and a client of it.
func (s *Store) nodeOf(channel string) (string, subscriber) {
	cc, ok := s.rdb.(*redis.ClusterClient)
	if !ok {
		return "", s.rdb
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := cc.MasterForKey(ctx, channel)
	if err != nil {
		return unresolved, nil
	}
	return c.Options().Addr, c
}

// add follows channel, whose (re)subscription sends code.
func (n *news) add(s *Store, channel, code string) {
	node, client := s.nodeOf(channel)
	n.addOn(s, node, client, channel, code)
}

// addOn follows channel on node, unless it is followed already.
func (n *news) addOn(s *Store, node string, client subscriber, channel, code string) {
	n.mu.Lock()
	if n.shards == nil {
		n.shards = map[string]*shard{}
	}
	for _, x := range n.shards {
		if _, ok := x.channels[channel]; ok {
			x.channels[channel] = code
			n.mu.Unlock()
			return // followed already
		}
	}
	sh := n.shards[node]
	if sh == nil {
		sh = &shard{node: node, client: client, channels: map[string]string{}}
		n.shards[node] = sh
		if n.ctx != nil {
			go s.listen(n.ctx, sh)
		}
	}
	sh.channels[channel] = code
	ps, ctx := sh.ps, n.ctx
	n.mu.Unlock()
	if ps != nil {
		// Only written here: the reply comes to the listener. Should it
		// fail, so does the listener's Receive, which starts over.
		_ = ps.SSubscribe(ctx, channel)
	}
}

// remove stops following channel.
func (n *news) remove(channel string) {
	n.mu.Lock()
	var sh *shard
	for _, x := range n.shards {
		if _, ok := x.channels[channel]; ok {
			sh = x
		}
	}
	if sh == nil {
		n.mu.Unlock()
		return
	}
	delete(sh.channels, channel)
	ps, ctx, last := sh.ps, n.ctx, len(sh.channels) == 0
	if last {
		delete(n.shards, sh.node)
	}
	n.mu.Unlock()
	switch {
	case ps == nil:
	case last:
		ps.Close() // its listener sees the shard gone and ends
	default:
		_ = ps.SUnsubscribe(ctx, channel)
	}
}

// errNoNode is open's error for a shard whose node is unknown.
var errNoNode = errors.New("redis cluster: no node known for the channels")

// open gives sh a new subscription to its channels, one SSUBSCRIBE each;
// nil when sh is no longer followed or the store closed.
func (n *news) open(sh *shard) (*redis.PubSub, error) {
	n.mu.Lock()
	if n.closed || n.shards[sh.node] != sh {
		n.mu.Unlock()
		return nil, nil
	}
	if sh.client == nil {
		n.mu.Unlock()
		return nil, errNoNode
	}
	ctx := n.ctx
	sh.ps = sh.client.SSubscribe(ctx) // no I/O until it subscribes
	ps := sh.ps
	chans := make([]string, 0, len(sh.channels))
	for c := range sh.channels {
		chans = append(chans, c)
	}
	n.mu.Unlock()
	for _, c := range chans {
		if err := ps.SSubscribe(ctx, c); err != nil {
			return ps, err
		}
	}
	return ps, nil
}

// regroup drops sh and follows its channels again, each with the node
// that serves it now.
func (n *news) regroup(s *Store, sh *shard) {
	n.mu.Lock()
	if n.closed || n.shards[sh.node] != sh {
		n.mu.Unlock()
		return
	}
	delete(n.shards, sh.node)
	chans := sh.channels
	n.mu.Unlock()
	for c, code := range chans {
		n.add(s, c, code)
	}
}

// subscribed returns what a (re)subscription to channel sends, and
// whether channel is still followed.
func (n *news) subscribed(sh *shard, channel string) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	code, ok := sh.channels[channel]
	return code, ok
}

// live reports whether sh is still followed.
func (n *news) live(sh *shard) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return !n.closed && n.shards[sh.node] == sh
}

func (n *news) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	if n.q != nil {
		n.q.close()
	}
	for _, sh := range n.shards {
		if sh.ps != nil {
			sh.ps.Close()
		}
	}
}

// listen follows one shard's subscription until it fails, then groups
// its channels again, each with the node serving it then; it ends when
// the shard is dropped, ctx ends or the store closes.
func (s *Store) listen(ctx context.Context, sh *shard) {
	ps, err := s.news.open(sh)
	if ps != nil {
		stop := context.AfterFunc(ctx, func() { ps.Close() })
		if err == nil {
			err = s.receive(ctx, ps, sh)
		}
		stop()
		ps.Close()
	}
	if ctx.Err() != nil || !s.news.live(sh) {
		return
	}
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		// A failover or a slot move: ask the cluster who serves what
		// now, rather than wait for go-redis to look again.
		cc.ReloadState(ctx)
	}
	select {
	case <-ctx.Done():
		return
	case <-time.After(200 * time.Millisecond): // Redis is away: retry soon, not in a spin
	}
	s.news.regroup(s, sh)
}
