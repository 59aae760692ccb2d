package lobby

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// listCounter counts the store's reads of every room.
type listCounter struct {
	*mem.Store
	lists atomic.Int64
}

func (s *listCounter) List(ctx context.Context) ([]store.Meta, error) {
	s.lists.Add(1)
	return s.Store.List(ctx)
}

// TestListsShareOneRead: many lobby screens listing at once cost one read
// of the store; a change makes the next list read it again and show the
// change; and the shared list goes stale by itself after listMaxAge, for
// a change elsewhere this instance never heard of.
func TestListsShareOneRead(t *testing.T) {
	ctx := context.Background()
	st := &listCounter{Store: mem.New()}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	var clock sync.Mutex
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Now: func() time.Time {
		clock.Lock()
		defer clock.Unlock()
		return now
	}})
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	first, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			if rooms, err := l.Rooms(ctx); err != nil || len(rooms) != 1 {
				t.Errorf("rooms: %v, %v", rooms, err)
			}
			if mine, err := l.History(ctx, alice.ID); err != nil || len(mine) != 0 {
				t.Errorf("alice's rooms, before she sits down: %v, %v", mine, err)
			}
		})
	}
	wg.Wait()
	// Readers that came before the first read was kept may have read
	// too, but never one each.
	if n := st.lists.Load(); n > 10 {
		t.Errorf("200 lists read the store %d times", n)
	}

	before := st.lists.Load()
	second, err := l.Create(ctx, bob, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	rooms, err := l.Rooms(ctx)
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{rooms[0].Code, rooms[len(rooms)-1].Code}
	if len(rooms) != 2 || !slices.Contains(codes, first.Code) || !slices.Contains(codes, second.Code) {
		t.Fatalf("after a room was made the list shows %v", codes)
	}
	if n := st.lists.Load() - before; n != 1 {
		t.Errorf("a list after a change read the store %d times, want 1", n)
	}

	// A room the store has but this instance was never told of (made by
	// an instance whose news was lost) shows once the list is old enough.
	m := store.Meta{Code: "ELSEW1", Game: first.Game, Public: true, Seats: []store.Seat{{Player: "carol", Name: "carol"}, {}}}
	if err := st.Create(ctx, m); err != nil {
		t.Fatal(err)
	}
	if rooms, _ := l.Rooms(ctx); len(rooms) != 2 {
		t.Fatalf("a fresh list shows %d rooms, want the 2 it read", len(rooms))
	}
	clock.Lock()
	now = now.Add(listMaxAge)
	clock.Unlock()
	if rooms, _ := l.Rooms(ctx); len(rooms) != 3 {
		t.Errorf("a list %s old shows %d rooms, want 3", listMaxAge, len(rooms))
	}
}

// TestPublicRoomsShareOneRead: screens asking for the public rooms after
// the same change share one read, whose rooms are the same slice for
// all; a screen told of a later change gets a read begun after it, which
// shows the change.
func TestPublicRoomsShareOneRead(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice := Player{ID: "key:alice", Name: "alice"}
	if _, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true}); err != nil {
		t.Fatal(err)
	}
	told := time.Now()
	first, err := l.PublicRooms(ctx, told)
	if err != nil || len(first) != 1 {
		t.Fatalf("public rooms: %v, %v", first, err)
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			rooms, err := l.PublicRooms(ctx, told)
			if err != nil || len(rooms) != 1 || &rooms[0] != &first[0] {
				t.Errorf("a screen told at the same change read again: %v, %v", rooms, err)
			}
		})
	}
	wg.Wait()
	if _, err := l.Create(ctx, alice, CreateOptions{Seats: 3, Public: true}); err != nil {
		t.Fatal(err)
	}
	later, err := l.PublicRooms(ctx, time.Now())
	if err != nil || len(later) != 2 {
		t.Errorf("after a change: %v, %v; want both rooms", later, err)
	}
}
