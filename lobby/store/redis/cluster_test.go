package redis

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// TestClusterContract holds the store to the contract on a real Redis
// Cluster of three primaries with a replica each: every script and
// transaction must stay within one slot, or Redis refuses it (CROSSSLOT).
func TestClusterContract(t *testing.T) {
	c := redistest.StartCluster(t)
	storetest.Run(t, func(t *testing.T) store.Store { return openCluster(t, c) })
}

// openCluster opens a store on c, closed when the test ends.
func openCluster(t testing.TB, c *redistest.Cluster) *Store {
	t.Helper()
	s, err := OpenCluster(context.Background(), c.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestClusterAskInstances: on a cluster PUBLISH counts only the listeners
// of the node that took it; the request's sharded channel counts every
// instance, so the asker waits for all of them and no more.
func TestClusterAskInstances(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	asker := openCluster(t, c)
	for i := range 3 {
		s := openCluster(t, c)
		go s.AnswerInstances(ctx, func(context.Context, store.OperatorRequest) store.OperatorAnswer {
			return store.OperatorAnswer{Instance: "i" + strconv.Itoa(i), N: 1}
		})
	}
	rdb := c.Client()
	for deadline := time.Now().Add(10 * time.Second); ; {
		n := shardListeners(ctx, rdb, redisOperators)
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d instances listening for requests after 10s, want 3", n)
		}
		time.Sleep(20 * time.Millisecond) // polling for the subscriptions
	}
	wait, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	answers, asked, err := asker.AskInstances(wait, store.OperatorRequest{Kind: "sessions"})
	if err != nil || asked != 3 || len(answers) != 3 {
		t.Fatalf("asked %d, %d answers, err %v; want 3 and 3", asked, len(answers), err)
	}
}

// TestClusterChangesFollowASlotMove: a room's slot moves to another
// primary (resharding); Redis drops the subscriptions to its channel, and
// the store subscribes again where the slot is now, so it goes on
// hearing the room's changes.
func TestClusterChangesFollowASlotMove(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, b := openCluster(t, c), openCluster(t, c)
	m := mustCreate(t, b)
	ch := a.Changes(ctx)
	a.Follow(m.Code)
	want := sorted(m.Code, chatChange(m.Code), seatsChange(m.Code), listChange, chatChange(""))
	if got := receive(t, ch, len(want)); !slices.Equal(got, want) {
		t.Fatalf("on subscribe: %v, want %v", got, want)
	}
	from := c.Primary(metaKey(m.Code))
	to := c.Primaries()[0]
	if to == from {
		to = c.Primaries()[1]
	}
	c.MoveSlot(metaKey(m.Code), to)
	if c.Primary(metaKey(m.Code)) != to {
		t.Fatal("the slot did not move")
	}
	// Until a subscribes again on the new primary, b's news is lost: b
	// plays on until a hears one.
	deadline := time.Now().Add(15 * time.Second)
	for at := 0; a.Heard() == 0; at++ {
		if time.Now().After(deadline) {
			t.Fatalf("a heard nothing of room %s for 15s after its slot moved", m.Code)
		}
		if err := b.Append(ctx, m.Code, at, rec(0, `{"kind":"take","slot":0}`, t0.Add(time.Duration(at))), engine.Status{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond) // the pace of b's player
	}
}

// TestClusterSubscriptionLeavesAReplica: a store whose view of the
// cluster was stale (a primary killed and restarted as its successor's
// replica) subscribed to a room's channel on a replica; it moves the
// subscription to the slot's primary, where what is published surely
// arrives, and catches the room up on the way.
func TestClusterSubscriptionLeavesAReplica(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := openCluster(t, c)
	m := mustCreate(t, a)
	ch := a.Changes(ctx)
	want := sorted(listChange, chatChange(""))
	if got := receive(t, ch, len(want)); !slices.Equal(got, want) {
		t.Fatalf("on subscribe: %v, want %v", got, want)
	}
	replica := c.ReplicaOf(c.Primary(metaKey(m.Code)))
	if replica == nil {
		t.Fatal("the room's primary has no replica")
	}
	stale := redis.NewClient(&redis.Options{Addr: replica.Addr()})
	t.Cleanup(func() { stale.Close() })
	a.news.addOn(a, replica.Addr(), stale, roomChannel(m.Code), m.Code)
	want = sorted(m.Code, chatChange(m.Code), seatsChange(m.Code))
	if got := receive(t, ch, len(want)); !slices.Equal(got, want) {
		t.Fatalf("on subscribing on the replica: %v, want %v", got, want)
	}
	if got := receive(t, ch, len(want)); !slices.Equal(got, want) {
		t.Fatalf("on moving to the primary: %v, want %v", got, want)
	}
	rdb := c.Client()
	if n := shardListeners(ctx, rdb, roomChannel(m.Code)); n != 1 {
		t.Fatalf("%d subscribers on the room's primary, want 1", n)
	}
}

// TestClusterSubscriptionsPerNode: an instance following rooms in many
// slots subscribes over one connection per primary, not one per slot.
func TestClusterSubscriptionsPerNode(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := openCluster(t, c)
	s.Changes(ctx)
	channels := []string{indexChannel}
	for i := range 40 {
		code := "S" + strconv.Itoa(i)
		s.Follow(code)
		channels = append(channels, roomChannel(code))
	}
	rdb := c.Client()
	for deadline := time.Now().Add(10 * time.Second); ; {
		subscribed := 0
		for _, ch := range channels {
			if shardListeners(ctx, rdb, ch) == 1 {
				subscribed++
			}
		}
		if subscribed == len(channels) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d channels subscribed after 10s", subscribed, len(channels))
		}
		time.Sleep(20 * time.Millisecond) // polling for the subscriptions
	}
	conns := 0
	for _, n := range c.Primaries() {
		clients, err := redis.NewClient(&redis.Options{Addr: n.Addr()}).ClientList(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		conns += strings.Count(clients, "flags=P")
	}
	if conns > 3 {
		t.Fatalf("%d subscription connections for %d channels, want one per primary (3)", conns, len(channels))
	}
}

// shardListeners counts the subscribers of a sharded channel on the node
// serving its slot, where they all are.
func shardListeners(ctx context.Context, rdb *redis.ClusterClient, channel string) int64 {
	node, err := rdb.MasterForKey(ctx, channel)
	if err != nil {
		return -1
	}
	n, err := node.PubSubShardNumSub(ctx, channel).Result()
	if err != nil {
		return -1
	}
	return n[channel]
}

// TestClusterWaitsForTheSlotsReplica: a move waits for a replica of the
// primary that took it, not of any node: with that one replica killed,
// and the others alive, the move is not confirmed.
func TestClusterWaitsForTheSlotsReplica(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx := context.Background()
	// The wait is long enough for a replica on a loaded machine to answer,
	// and is what the move with its replica killed takes to be refused.
	s, err := OpenClusterWith(ctx, c.URL, Options{Replicas: 1, ReplicaWait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	m := mustCreate(t, s)
	if err := s.Append(ctx, m.Code, 0, rec(0, `{"kind":"take","slot":0}`, t0), engine.Status{}); err != nil {
		t.Fatalf("with its replica: %v", err)
	}
	replica := c.ReplicaOf(c.Primary(metaKey(m.Code)))
	if replica == nil {
		t.Fatal("the room's primary has no replica")
	}
	replica.Kill()
	err = s.Append(ctx, m.Code, 1, rec(1, `{"kind":"take","slot":1}`, t0), engine.Status{})
	if !errors.Is(err, store.ErrUnconfirmed) {
		t.Fatalf("with its replica killed: %v, want ErrUnconfirmed", err)
	}
}

// TestClusterListsBuiltOnOpen: a store written before the room lists,
// opened on a cluster, gets them as one opened on a single node does:
// both ways of opening share the step that brings a store up to date.
func TestClusterListsBuiltOnOpen(t *testing.T) {
	ctx := context.Background()
	c := redistest.StartCluster(t)
	s := openCluster(t, c)
	var made []string
	for range 3 {
		made = append(made, mustCreate(t, s).Code)
	}
	// As an older version left it: the room set and the rooms, no lists,
	// which lie on every primary.
	rdb := c.Client()
	var mu sync.Mutex
	var keys []string
	err := rdb.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		ks, err := node.Keys(ctx, redisPrefix+"list*").Result()
		mu.Lock()
		keys = append(keys, ks...)
		mu.Unlock()
		return err
	})
	if err != nil || !slices.Contains(keys, listKey(store.ListOpen)) {
		t.Fatalf("list keys %v (%v)", keys, err)
	}
	for _, k := range append(keys, listsBuilt) {
		if err := rdb.Del(ctx, k).Err(); err != nil {
			t.Fatal(err)
		}
	}
	seats, err := openCluster(t, c).OpenSeats(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	got := codes(seats)
	slices.Sort(got)
	if !slices.Equal(got, made) {
		t.Fatalf("open seats after opening an old store on the cluster: %v, want %v", got, made)
	}
	mine, err := s.PlayerRooms(ctx, "key:h", 10)
	if err != nil || len(mine) != len(made) {
		t.Fatalf("the host's rooms after the build: %v (%v), want %d", codes(mine), err, len(made))
	}
}
