package lobby

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// woken reports whether ch received a value within d.
func woken(ch <-chan struct{}, d time.Duration) bool {
	select {
	case _, ok := <-ch:
		return ok
	case <-time.After(d):
		return false
	}
}

// drain takes the value waiting in ch, if any.
func drain(ch <-chan struct{}) {
	select {
	case <-ch:
	default:
	}
}

// TestRoomChangesFeed checks that lobby screens hear of every change their
// lists show: a new room, a seat taken, the game started, the acting seat
// moving on, the end; that unread changes merge into one; and that the
// feed closes with its context.
func TestRoomChangesFeed(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	sub, stop := context.WithCancel(ctx)
	ch := l.RoomChanges(sub)
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}

	m, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if !woken(ch, time.Second) {
		t.Fatal("a new room did not wake the feed")
	}
	ca, err := l.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	if !woken(ch, time.Second) {
		t.Fatal("a seat taken did not wake the feed")
	}
	cb, err := l.Join(ctx, m.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	if !woken(ch, time.Second) {
		t.Fatal("the game starting did not wake the feed")
	}
	// Two changes unread are one value: the reader looks once. (The feed
	// is woken before Join returns.)
	select {
	case <-ch:
		t.Fatal("a seat taken and the game starting, unread, woke the feed twice")
	default:
	}
	conns := map[int]*Conn{ca.Seat(): ca, cb.Seat(): cb}
	for range 2 {
		u := latest(t, ca)
		seat := u.Room.Acting[0]
		raw, _ := json.Marshal(view(t, latest(t, conns[seat])).Legal[0])
		if err := conns[seat].Move(ctx, raw); err != nil {
			t.Fatal(err)
		}
	}
	if !woken(ch, time.Second) {
		t.Fatal("the acting seat moving on did not wake the feed")
	}
	select {
	case <-ch:
		t.Fatal("two moves unread woke the feed twice")
	default:
	}
	stop()
	deadline := time.After(time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatal("the feed was not closed when its context ended")
		}
	}
}

// TestRoomListsAfterRestart checks that a game in progress is listed with
// its real round and acting seats after a restart, before anyone opens
// it, and that a game just started shows its first round.
func TestRoomListsAfterRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newLobby(t, st)
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	played, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true, Seed: 5, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true, Seed: 6, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	var conns [2]*Conn
	for i, p := range []Player{alice, bob} {
		if conns[i], err = l.Join(ctx, played.Code, p); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Join(ctx, fresh.Code, p); err != nil {
			t.Fatal(err)
		}
	}
	// Into round 2 and a little way into it.
	for moves := 0; moves < 6; moves++ {
		for _, c := range conns {
			if v := view(t, latest(t, c)); len(v.Legal) > 0 {
				raw, _ := json.Marshal(v.Legal[0])
				if err := c.Move(ctx, raw); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	before := latest(t, conns[0]).Room
	if before.Round != 2 {
		t.Fatalf("after 6 moves the room is in round %d, want 2", before.Round)
	}
	st.Close()

	store2, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	l2 := newLobby(t, store2)
	rooms, err := l2.Rooms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if l2.cached(played.Code) != nil || l2.cached(fresh.Code) != nil {
		t.Fatal("listing rooms loaded them: the test would not show what the store keeps")
	}
	got := map[string]RoomInfo{}
	for _, r := range rooms {
		got[r.Code] = r
	}
	if r := got[played.Code]; r.Round != before.Round || !slices.Equal(r.Acting, before.Acting) {
		t.Fatalf("after a restart the game in play lists round %d acting %v, want round %d acting %v", r.Round, r.Acting, before.Round, before.Acting)
	}
	if r := got[fresh.Code]; r.Round != 1 || !slices.Equal(r.Acting, []int{0}) {
		t.Fatalf("a game started but not played lists round %d acting %v, want round 1 acting [0]", r.Round, r.Acting)
	}
}

// TestRedisRoomChanges checks the feed across instances: a room created
// on one instance, never loaded on the other, wakes the other's lobby
// screens and is listed there with the round its moves reached.
func TestRedisRoomChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := redistest.Start(t)
	a, b := newInstance(t, r), newInstance(t, r)
	ch := a.lobby.RoomChanges(ctx)
	// Both instances follow the change feed once Run subscribes, and a
	// subscription (re)made announces every room, none yet: once both
	// are subscribed, nothing more comes of it.
	rdb := rawRedis(t, r)
	eventually(t, "both instances subscribed", func() bool {
		n, err := rdb.PubSubShardNumSub(ctx, indexChannel).Result()
		return err == nil && n[indexChannel] == 2
	})
	drain(ch)

	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	m, err := b.lobby.Create(ctx, alice, CreateOptions{Seats: 2, Public: true, Seed: 9, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	if !woken(ch, 5*time.Second) {
		t.Fatal("a room created on the other instance did not wake this one's feed")
	}
	ca, err := b.lobby.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := b.lobby.Join(ctx, m.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	conns := map[int]*Conn{ca.Seat(): ca, cb.Seat(): cb}
	for range 3 {
		drain(ch)
		c := conns[latest(t, ca).Room.Acting[0]]
		raw, _ := json.Marshal(tally.Move{Kind: view(t, latest(t, c)).Legal[0].Kind})
		if err := c.Move(ctx, raw); err != nil {
			t.Fatal(err)
		}
		if !woken(ch, 5*time.Second) {
			t.Fatal("a move on the other instance did not wake this one's feed")
		}
	}
	want := latest(t, cb).Room
	rooms, err := a.lobby.Rooms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a.lobby.cached(m.Code) != nil {
		t.Fatal("the room is loaded on instance a: the list would not come from the store")
	}
	i := slices.IndexFunc(rooms, func(r RoomInfo) bool { return r.Code == m.Code })
	if i < 0 {
		t.Fatalf("room %s not listed on the other instance", m.Code)
	}
	if got := rooms[i]; got.Round != want.Round || !slices.Equal(got.Acting, want.Acting) || !got.Started {
		t.Fatalf("the other instance lists round %d acting %v started %v, want round %d acting %v", got.Round, got.Acting, got.Started, want.Round, want.Acting)
	}
}
