package lobby

import (
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// stuckStore is the memory store with one room's Append and Load held
// once armed, until released, as a Redis that stopped answering for that
// room's slot would hold them. Like a store shared between instances it
// has a cluster part (feed), whose changes are what the test announces.
type stuckStore struct {
	store.Store
	code    string
	armed   atomic.Bool
	release chan struct{}
	stuck   atomic.Int32 // calls held now
	feed    *feed
}

func newStuckStore(under store.Store, code string) *stuckStore {
	return &stuckStore{Store: under, code: code, release: make(chan struct{}), feed: &feed{changes: make(chan store.Change, 8)}}
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

func (s *stuckStore) Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error) {
	if err := s.hold(ctx, code); err != nil {
		return store.Meta{}, nil, err
	}
	return s.Store.Load(ctx, code, from)
}

func (s *stuckStore) Append(ctx context.Context, code string, at int, rec store.Record, st engine.Status) error {
	if err := s.hold(ctx, code); err != nil {
		return err
	}
	return s.Store.Append(ctx, code, at, rec, st)
}

func (s *stuckStore) Cluster() store.Cluster { return s.feed }

// feed is the part of a shared store these tests need: the changes the
// test announces, and no seat held on any other instance. It counts no
// failed lookups and carries no operators' requests: the tests make none.
type feed struct {
	changes chan store.Change
}

func (f *feed) Changes(context.Context) <-chan store.Change { return f.changes }
func (f *feed) Follow(string)                               {}
func (f *feed) Unfollow(string)                             {}

func (f *feed) Heartbeat(_ context.Context, now time.Time) (store.Heartbeats, bool, error) {
	return store.Heartbeats{At: now}, false, nil
}

func (f *feed) ClaimSeats(context.Context, string, []int, map[int]time.Time, time.Time) (store.SharedPresence, error) {
	return store.SharedPresence{}, nil
}

func (f *feed) SeatPresence(context.Context, string) (store.SharedPresence, error) {
	return store.SharedPresence{}, nil
}

func (f *feed) Miss(context.Context, string, time.Time, time.Duration) (int, time.Time, error) {
	return 0, time.Time{}, nil
}

func (f *feed) Misses(context.Context, string, time.Time) (int, time.Time, error) {
	return 0, time.Time{}, nil
}

func (f *feed) Turn(context.Context, string, time.Time, time.Duration) (time.Duration, error) {
	return 0, nil
}

func (f *feed) AskInstances(context.Context, store.OperatorRequest) ([]store.OperatorAnswer, int, error) {
	return nil, 0, nil
}

func (f *feed) AnswerInstances(context.Context, func(context.Context, store.OperatorRequest) store.OperatorAnswer) {
}

// Lease: with no other instance, this one holds every lease.
func (f *feed) Lease(context.Context, string, time.Duration) (bool, error) { return true, nil }
func (f *feed) Release(context.Context, string) error                      { return nil }

// TestStuckStoreHoldsUpOnlyItsRoom: while one room's store calls hang (a
// move stuck in Append, or a refresh stuck in Load), another room's moves
// and refreshes go through, and the stuck room's readers are not held: a
// spectator coming in, its description, its presence and its chat. Only
// the stuck room's next change waits.
func TestStuckStoreHoldsUpOnlyItsRoom(t *testing.T) {
	for _, call := range []string{"Append", "Load"} {
		t.Run(call, func(t *testing.T) {
			ctx := context.Background()
			under := mem.New()
			// Another instance plays ben's seat in the free room through
			// the memory store itself, which never sticks.
			otherStore := newStuckStore(under, "")
			other := run(t, otherStore)
			stuck, _ := other.Create(ctx, ann, CreateOptions{Seats: 2, Public: true})
			free, _ := other.Create(ctx, ann, CreateOptions{Seats: 2, Public: true})
			held := newStuckStore(under, stuck.Code)
			l := run(t, held)
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
			held.feed.changes <- store.Change{Kind: store.RoomChange, Code: free.Code} // ben sat down on the other instance
			until(t, annFree, func(u Update) bool { return u.Room.Started })

			held.armed.Store(true)
			var released atomic.Bool
			t.Cleanup(func() {
				if !released.Load() {
					close(held.release)
				}
			})
			moved := make(chan error, 1)
			if call == "Append" {
				go func() { moved <- annStuck.Move(ctx, take) }()
			} else {
				held.feed.changes <- store.Change{Kind: store.RoomChange, Code: stuck.Code} // its refresh loads what changed
			}
			eventually(t, "a store call of the stuck room held", func() bool { return held.stuck.Load() == 1 })
			held.feed.changes <- store.Change{Kind: store.RoomChange, Code: stuck.Code} // another refresh: it waits its turn
			othersGoOn(t, held, otherStore, stuck.Code, free.Code, annFree, benFree)
			readersGoOn(t, l, stuck.Code, annStuck, benStuck)

			released.Store(true)
			close(held.release)
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

// run starts a lobby over st, running until the test ends.
func run(t *testing.T, st store.Store) *Lobby {
	l := New(Config{Store: st, Games: []Game{tallyGame()}})
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
	other.feed.changes <- store.Change{Kind: store.RoomChange, Code: free}
	until(t, ben, func(u Update) bool { return u.Version == 1 })
	if err := ben.Move(context.Background(), take); err != nil {
		t.Fatalf("ben's move on the other instance: %v", err)
	}
	here.feed.changes <- store.Change{Kind: store.RoomChange, Code: stuck}
	here.feed.changes <- store.Change{Kind: store.RoomChange, Code: free}
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
		return slices.ContainsFunc(u.Chat, func(c store.ChatLine) bool { return c.Text == "still there?" })
	})
	within(t, func() (any, error) { ben.Close(); return nil, nil })
	until(t, ann, func(u Update) bool { return !u.Room.Seats[1].Connected })
}
