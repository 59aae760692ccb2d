package redis

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

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

// TestSlot: the slots Redis Cluster's specification gives as examples,
// and a hash tag choosing the slot.
func TestSlot(t *testing.T) {
	for key, want := range map[string]int{
		"123456789":              0x31C3 % 16384,
		"foo":                    12182,
		"{user1000}.following":   Slot("user1000"),
		"smokestack:{AB12}:meta": Slot("AB12"),
		"foo{}{bar}":             Slot("foo{}{bar}"),
	} {
		if got := Slot(key); got != want {
			t.Errorf("Slot(%q) = %d, want %d", key, got, want)
		}
	}
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
		n, err := rdb.PubSubShardNumSub(ctx, redisOperators).Result()
		if err == nil && n[redisOperators] == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("3 instances not listening for requests after 10s: %v %v", n, err)
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
	want := sorted(m.Code, chatChange(m.Code), listChange, chatChange(""))
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
