package redis

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

// TestContract holds the store to the contract on a real Redis; every
// part's store is a connection of its own to the one server.
func TestContract(t *testing.T) {
	r := redistest.Start(t)
	storetest.Run(t, func(t *testing.T) store.Store { return openRedis(t, r) })
}

// openRedis opens a store on r, closed when the test ends. r comes from
// redistest.Start, which skips the test without redis-server (and fails it
// when CI is set).
func openRedis(t testing.TB, r *redistest.Server) *Store {
	t.Helper()
	s, err := Open(context.Background(), r.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 890000000, time.UTC)

// mustCreate stores a new room of two seats under a code of its own.
func mustCreate(t *testing.T, s *Store) store.Meta {
	t.Helper()
	m := store.Meta{Code: "R" + time.Now().Format("150405.000000000"), Game: "tally", Public: true, Host: "key:h",
		Seats: []store.Seat{{Player: "key:h", Name: "hana"}, {}}, Created: t0, Updated: t0, Version: 1}
	if err := s.Create(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

func rec(seat int, move string, at time.Time) store.Record {
	return store.Record{Seat: seat, Move: json.RawMessage(move), At: at}
}

// TestRedisRetriedWritesAreIdempotent: go-redis resends a script whose
// reply was lost; the resend must count as done, never as a conflict that
// would make the room judge — and maybe play — its own move twice.
func TestRedisRetriedWritesAreIdempotent(t *testing.T) {
	ctx := context.Background()
	s := openRedis(t, redistest.Start(t))
	m := mustCreate(t, s)
	if err := s.Create(ctx, m); err != nil {
		t.Fatalf("resent create: %v", err)
	}
	r := rec(0, `{"kind":"take","slot":0}`, t0)
	for range 2 {
		if err := s.Append(ctx, m.Code, 0, r, engine.Status{}); err != nil {
			t.Fatalf("resent append: %v", err)
		}
	}
	if err := s.Append(ctx, m.Code, 0, rec(1, `{"kind":"take","slot":0}`, t0), engine.Status{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("another writer's move 0: %v, want ErrConflict", err)
	}
	next := m
	next.Version, next.Public = 2, false
	for range 2 {
		if err := s.SaveMeta(ctx, next); err != nil {
			t.Fatalf("resent save: %v", err)
		}
	}
	if _, moves, _ := s.Load(ctx, m.Code, 0); len(moves) != 1 {
		t.Fatalf("log holds %d moves, want 1", len(moves))
	}
}

// TestRedisChanges: a store hears other stores' changes to the rooms it
// follows but not its own, nor the moves of rooms it does not follow; it
// hears every room created elsewhere; and after Redis restarts it names
// every room it follows, its chat and the lists again, because whatever
// was announced while it was away is lost.
func TestRedisChanges(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := redistest.StartOwn(t, "other rooms would be announced too")
	a, b := openRedis(t, r), openRedis(t, r)
	x, y, z := mustCreate(t, a), mustCreate(t, a), mustCreate(t, a)
	a.Follow(x.Code)
	ch := a.Changes(ctx)
	a.Follow(y.Code)
	all := []string{x.Code, y.Code, chatChange(x.Code), chatChange(y.Code), seatsChange(x.Code), seatsChange(y.Code), listChange, chatChange("")}
	slices.Sort(all)
	if got := receive(t, ch, len(all)); !slices.Equal(got, all) {
		t.Fatalf("on subscribe: %v, want the rooms followed, their chats and seats, and the lists %v", got, all)
	}
	if err := a.Append(ctx, x.Code, 0, rec(0, `{"kind":"done"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, z.Code, 0, rec(0, `{"kind":"done"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, y.Code, 0, rec(0, `{"kind":"done"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	w := mustCreate(t, b)
	// Announcements arrive in order on each channel: had a's own, or z's
	// (not followed), come through, they would be there before.
	if got := receive(t, ch, 2); !slices.Equal(got, sorted(y.Code, w.Code)) {
		t.Fatalf("changes heard: %v, want %s (followed, changed by the other store) and %s (created)", got, y.Code, w.Code)
	}
	a.Unfollow(y.Code)
	r.Down()
	r.Up()
	all = sorted(x.Code, chatChange(x.Code), seatsChange(x.Code), listChange, chatChange(""))
	if got := receive(t, ch, len(all)); !slices.Equal(got, all) {
		t.Fatalf("after redis restarted: %v, want the rooms followed, their chats and seats, and the lists %v", got, all)
	}
	if a.Heard() != 2 {
		t.Fatalf("a heard %d announcements, want 2", a.Heard())
	}
	cancel()
	for range ch { // closes once ctx ends
	}
}

func sorted(s ...string) []string { slices.Sort(s); return s }

// announced is the announcement c was read from, so what a test wants reads
// as the stores announce it.
func announced(t *testing.T, c store.Change) string {
	t.Helper()
	switch c.Kind {
	case store.RoomChange:
		return c.Code
	case store.ChatChange:
		return chatChange(c.Code)
	case store.SeatsChange:
		return seatsChange(c.Code)
	case store.ListsChange:
		return listChange
	}
	t.Fatalf("news of no kind: %+v", c)
	return ""
}

// receive takes n pieces of news from ch, written as announced (see
// announced), sorted.
func receive(t *testing.T, ch <-chan store.Change, n int) []string {
	t.Helper()
	var got []string
	deadline := time.After(10 * time.Second)
	for len(got) < n {
		select {
		case c, ok := <-ch:
			if !ok {
				t.Fatalf("changes closed after %v", got)
			}
			got = append(got, announced(t, c))
		case <-deadline:
			t.Fatalf("got %v within 10s, want %d codes", got, n)
		}
	}
	slices.Sort(got)
	return got
}
