package lobby

import (
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// stuckStore is the memory store with one room's Append and Load held
// once armed, until released, as a Redis that stopped answering for that
// room's slot would hold them. Like a store shared between instances it
// announces changes: the codes the test sends on changes.
type stuckStore struct {
	*MemStore
	code    string
	armed   atomic.Bool
	release chan struct{}
	stuck   atomic.Int32 // calls held now
	changes chan string
}

func (s *stuckStore) hold(ctx context.Context, code string) error {
	if code != s.code || !s.armed.Load() {
		return nil
	}
	s.stuck.Add(1)
	defer s.stuck.Add(-1)
	select {
	case <-s.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *stuckStore) Load(ctx context.Context, code string, from int) (Meta, []Record, error) {
	if err := s.hold(ctx, code); err != nil {
		return Meta{}, nil, err
	}
	return s.MemStore.Load(ctx, code, from)
}

func (s *stuckStore) Append(ctx context.Context, code string, at int, rec Record, st engine.Status) error {
	if err := s.hold(ctx, code); err != nil {
		return err
	}
	return s.MemStore.Append(ctx, code, at, rec, st)
}

func (s *stuckStore) Changes(context.Context) <-chan string { return s.changes }

// TestStuckStoreHoldsUpOnlyItsRoom: while one room's store calls hang (a
// move stuck in Append, or a refresh stuck in Load), another room's moves
// and refreshes go through, and the stuck room's readers are not held: a
// spectator coming in, its description, its presence and its chat. Only
// the stuck room's next change waits.
func TestStuckStoreHoldsUpOnlyItsRoom(t *testing.T) {
	for _, call := range []string{"Append", "Load"} {
		t.Run(call, func(t *testing.T) {
			ctx := context.Background()
			mem := NewMemStore()
			// Another instance plays ben's seat in the free room through
			// the memory store itself, which never sticks.
			otherStore := &stuckStore{MemStore: mem, changes: make(chan string, 8)}
			other := run(t, otherStore)
			stuck, _ := other.Create(ctx, ann, CreateOptions{Seats: 2, Public: true})
			free, _ := other.Create(ctx, ann, CreateOptions{Seats: 2, Public: true})
			store := &stuckStore{MemStore: mem, code: stuck.Code, release: make(chan struct{}), changes: make(chan string, 8)}
			l := run(t, store)
			join := func(l *Lobby, code string, p Player) *Conn {
				c, err := l.Join(ctx, code, p)
				if err != nil {
					t.Fatalf("%s joins %s: %v", p.Name, code, err)
				}
				t.Cleanup(c.Close)
				return c
			}
			annStuck, benStuck := join(l, stuck.Code, ann), join(l, stuck.Code, ben)
			annFree, benFree := join(l, free.Code, ann), join(other, free.Code, ben)
			store.changes <- free.Code // ben sat down on the other instance
			until(t, annFree, func(u Update) bool { return u.Room.Started })

			store.armed.Store(true)
			var released atomic.Bool
			t.Cleanup(func() {
				if !released.Load() {
					close(store.release)
				}
			})
			moved := make(chan error, 1)
			if call == "Append" {
				go func() { moved <- annStuck.Move(ctx, take) }()
			} else {
				store.changes <- stuck.Code // its refresh loads what changed
			}
			eventually(t, "a store call of the stuck room held", func() bool { return store.stuck.Load() == 1 })
			store.changes <- stuck.Code // another refresh: it waits its turn
			othersGoOn(t, store, otherStore, stuck.Code, free.Code, annFree, benFree)
			readersGoOn(t, l, stuck.Code, annStuck, benStuck)

			released.Store(true)
			close(store.release)
			if call == "Append" {
				if err := <-moved; err != nil {
					t.Fatalf("ann's move, once the store answers: %v", err)
				}
				until(t, annStuck, func(u Update) bool { return u.Version == 1 })
			}
		})
	}
}

var take = json.RawMessage(`{"kind":"take"}`)

// run starts a lobby over store, running until the test ends.
func run(t *testing.T, store Store) *Lobby {
	l := New(Config{Store: store, Games: []Game{tallyGame()}})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); l.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	return l
}

// othersGoOn checks that, with the stuck room's store calls held, ann's
// move in the free room here goes through, and so does the room's
// refresh after ben's move on the other instance, announced after a
// change of the stuck room.
func othersGoOn(t *testing.T, here, other *stuckStore, stuck, free string, ann, ben *Conn) {
	t.Helper()
	if _, err := within(t, func() (any, error) { return nil, ann.Move(context.Background(), take) }); err != nil {
		t.Fatalf("a move in another room: %v", err)
	}
	other.changes <- free
	until(t, ben, func(u Update) bool { return u.Version == 1 })
	if err := ben.Move(context.Background(), take); err != nil {
		t.Fatalf("ben's move on the other instance: %v", err)
	}
	here.changes <- stuck
	here.changes <- free
	until(t, ann, func(u Update) bool { return u.Version == 2 })
}

// readersGoOn checks that the stuck room is described, watched, talked
// in and left without waiting for its store calls.
func readersGoOn(t *testing.T, l *Lobby, stuck string, ann, ben *Conn) {
	t.Helper()
	ctx := context.Background()
	if _, err := within(t, func() (RoomInfo, error) { return l.Info(ctx, stuck, cal) }); err != nil {
		t.Fatalf("the stuck room's info: %v", err)
	}
	w, err := within(t, func() (*Conn, error) { return l.Watch(ctx, stuck, cal) })
	if err != nil {
		t.Fatalf("watching the stuck room: %v", err)
	}
	if u := next(t, w); u.Room.Spectators != 1 {
		t.Fatalf("the spectator's first update shows %d spectators", u.Room.Spectators)
	}
	w.Close()
	if _, err := within(t, func() (any, error) { return nil, ben.Say(ctx, "still there?") }); err != nil {
		t.Fatalf("chat in the stuck room: %v", err)
	}
	until(t, ann, func(u Update) bool {
		return slices.ContainsFunc(u.Chat, func(c ChatLine) bool { return c.Text == "still there?" })
	})
	within(t, func() (any, error) { ben.Close(); return nil, nil })
	until(t, ann, func(u Update) bool { return !u.Room.Seats[1].Connected })
}
