package lobby

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// noList is a store whose List, which reads every room, fails the test:
// the lobby's lists and quotas read pages of the store's lists instead.
type noList struct {
	*mem.Store
	t *testing.T
}

func (s noList) List(ctx context.Context) ([]store.Meta, error) {
	s.t.Error("a lobby's list or quota read every stored room")
	return s.Store.List(ctx)
}

// TestListsReadPages: the public lists, a player's games and the room
// quotas read pages of the store's lists, never every room; a room made
// elsewhere (by an instance whose news was lost) shows at the next read,
// and a finished one leaves the public lists for its players' games.
func TestListsReadPages(t *testing.T) {
	ctx := context.Background()
	st := noList{Store: mem.New(), t: t}
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Limits: DefaultLimits()})
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	first, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Create(ctx, bob, CreateOptions{Seats: 2, Public: true}); err != nil {
		t.Fatal(err)
	}
	m := store.Meta{Code: "ELSEW1", Game: first.Game, Public: true, Host: "carol",
		Seats: []store.Seat{{Player: "carol", Name: "carol"}, {}}, Created: time.Now(), Updated: time.Now()}
	if err := st.Create(ctx, m); err != nil {
		t.Fatal(err)
	}
	rooms, err := l.Rooms(ctx)
	if err != nil || len(rooms) != 3 || rooms[0].Code != m.Code {
		t.Fatalf("rooms %v (%v), want 3, the one made elsewhere first", rooms, err)
	}
	if mine, err := l.History(ctx, "carol"); err != nil || len(mine) != 1 || mine[0].Code != m.Code {
		t.Fatalf("carol's rooms %v (%v), want %s", mine, err, m.Code)
	}
	m.Version++
	m.Over = true
	if err := st.SaveMeta(ctx, m); err != nil {
		t.Fatal(err)
	}
	if rooms, err := l.Rooms(ctx); err != nil || len(rooms) != 2 {
		t.Fatalf("after a game ended: rooms %v (%v), want the other 2", rooms, err)
	}
	if mine, err := l.History(ctx, "carol"); err != nil || len(mine) != 1 || !mine[0].Over {
		t.Fatalf("carol's rooms after her game ended: %v (%v), want it, over", mine, err)
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
