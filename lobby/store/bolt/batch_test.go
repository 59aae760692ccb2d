package bolt_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

func openAt(t testing.TB, path string) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every move Append acknowledged is in the file when it is opened again,
// though the store was closed while rooms were still appending.
func TestAcknowledgedMovesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooms.db")
	s := openAt(t, path)
	storetest.Durable(t, s, func() store.Store {
		s.Close()
		r := openAt(t, path)
		t.Cleanup(func() { r.Close() })
		return r
	})
}

// Moves of many rooms that arrive while a commit is under way share the
// next commit, and one room's refusal in it is that room's answer alone:
// the others' moves are stored by the same commit. A move that fails the
// shared transaction (its record cannot be written) fails alone: the
// others are committed each on its own.
func TestMovesArrivingTogetherShareOneCommit(t *testing.T) {
	ctx := context.Background()
	s := openAt(t, filepath.Join(t.TempDir(), "rooms.db"))
	defer s.Close()
	const rooms, odd = 50, 7
	codes := make([]string, rooms)
	for i := range codes {
		codes[i] = fmt.Sprintf("R%03d", i)
		if err := s.Create(ctx, store.Meta{Code: codes[i], Game: "factories", Host: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	// together appends move at to every room, and oddOne's to room odd,
	// while a commit is under way; it returns their answers and the
	// commits made once it is done.
	together := func(at int, oddOne func(code string) error) ([]error, int64) {
		queued, release := bolt.Hold(s)
		errs := make([]error, rooms)
		var wg sync.WaitGroup
		for i, code := range codes {
			wg.Go(func() {
				if i == odd {
					errs[i] = oddOne(code)
					return
				}
				errs[i] = s.Append(ctx, code, at, store.Record{Move: json.RawMessage(`{"kind":"pass"}`), At: time.Unix(int64(at), 0).UTC()}, engine.Status{})
			})
		}
		deadline := time.Now().Add(10 * time.Second)
		for queued() < rooms {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d moves queued behind the commit under way within 10s", queued(), rooms)
			}
			time.Sleep(time.Millisecond) // until every move has queued
		}
		before := bolt.Commits(s)
		release()
		wg.Wait()
		return errs, bolt.Commits(s) - before
	}
	check := func(errs []error, oddWant string, oddOK func(error) bool, moves int) {
		t.Helper()
		for i, err := range errs {
			if i == odd {
				if !oddOK(err) {
					t.Errorf("room %d: %v, want %s", i, err, oddWant)
				}
				continue
			}
			if err != nil {
				t.Errorf("room %d: %v", i, err)
			}
		}
		for i, code := range codes {
			want := moves
			if i == odd {
				want = 0
			}
			if _, got, _ := s.Load(ctx, code, 0); len(got) != want {
				t.Errorf("room %s holds %d moves, want %d", code, len(got), want)
			}
		}
	}

	errs, commits := together(0, func(code string) error { // its room's log is not 3 long
		return s.Append(ctx, code, 3, store.Record{Move: json.RawMessage(`{}`)}, engine.Status{})
	})
	check(errs, "ErrConflict", func(err error) bool { return errors.Is(err, store.ErrConflict) }, 1)
	if commits != 1 {
		t.Errorf("%d moves took %d commits, want 1", rooms-1, commits)
	}

	errs, commits = together(1, func(code string) error { // a record that cannot be written
		return s.Append(ctx, code, 0, store.Record{Move: json.RawMessage(`{"kind":`)}, engine.Status{})
	})
	check(errs, "a JSON syntax error", func(err error) bool { return errors.As(err, new(*json.SyntaxError)) }, 2)
	if commits != rooms-1 {
		t.Errorf("after a failed shared transaction: %d commits, want %d (each move alone)", commits, rooms-1)
	}
}

// A move whose context ends while it is queued behind a commit is
// withdrawn: Append answers the context's error and the move is never
// stored, while the move queued with it is.
func TestMoveCancelledWhileQueuedIsNotStored(t *testing.T) {
	s := openAt(t, filepath.Join(t.TempDir(), "rooms.db"))
	defer s.Close()
	bg := context.Background()
	for _, code := range []string{"GONE01", "KEPT01"} {
		if err := s.Create(bg, store.Meta{Code: code, Game: "factories", Host: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	move := store.Record{Move: json.RawMessage(`{"kind":"pass"}`)}
	queued, release := bolt.Hold(s)
	ctx, cancel := context.WithCancel(bg)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Go(func() { errs[0] = s.Append(ctx, "GONE01", 0, move, engine.Status{}) })
	wg.Go(func() { errs[1] = s.Append(bg, "KEPT01", 0, move, engine.Status{}) })
	for deadline := time.Now().Add(10 * time.Second); queued() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the moves did not queue within 10s")
		}
	}
	cancel()
	for deadline := time.Now().Add(10 * time.Second); queued() > 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the cancelled move was not withdrawn within 10s")
		}
	}
	release()
	wg.Wait()
	if !errors.Is(errs[0], context.Canceled) {
		t.Errorf("cancelled while queued: %v, want context.Canceled", errs[0])
	}
	if errs[1] != nil {
		t.Errorf("the move queued with it: %v", errs[1])
	}
	for code, want := range map[string]int{"GONE01": 0, "KEPT01": 1} {
		if _, got, err := s.Load(bg, code, 0); err != nil || len(got) != want {
			t.Errorf("room %s holds %d moves (%v), want %d", code, len(got), err, want)
		}
	}
}

// BenchmarkAppend: moves stored per second, CPU and commits (fsyncs) per
// move with 1, 64 and 1024 rooms appending at once.
func BenchmarkAppend(b *testing.B) {
	for _, rooms := range []int{1, 64, 1024} {
		b.Run(fmt.Sprintf("rooms=%d", rooms), func(b *testing.B) {
			s := openAt(b, filepath.Join(b.TempDir(), "rooms.db"))
			defer s.Close()
			storetest.BenchAppend(b, s, rooms, storetest.Counters{Counts: map[string]func() int64{"commits": func() int64 { return bolt.Commits(s) }}})
		})
	}
}
