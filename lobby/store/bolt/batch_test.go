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
// the others' moves are stored by the same commit.
func TestMovesArrivingTogetherShareOneCommit(t *testing.T) {
	ctx := context.Background()
	s := openAt(t, filepath.Join(t.TempDir(), "rooms.db"))
	defer s.Close()
	const rooms = 50
	codes := make([]string, rooms)
	for i := range codes {
		codes[i] = fmt.Sprintf("R%03d", i)
		if err := s.Create(ctx, store.Meta{Code: codes[i], Game: "factories", Host: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	move := store.Record{Move: json.RawMessage(`{"kind":"pass"}`), At: time.Unix(1, 0).UTC()}
	before := bolt.Commits(s)
	var wg sync.WaitGroup
	errs := make([]error, rooms)
	for i, code := range codes {
		at := 0
		if i == 7 {
			at = 3 // a stale writer: its room's log is not 3 long
		}
		wg.Go(func() { errs[i] = s.Append(ctx, code, at, move, engine.Status{}) })
	}
	wg.Wait()
	commits := bolt.Commits(s) - before
	for i, err := range errs {
		if i == 7 {
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("stale move: %v, want ErrConflict", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("room %s: %v", codes[i], err)
		}
	}
	if commits >= rooms-1 {
		t.Errorf("%d moves took %d commits: none were shared", rooms-1, commits)
	}
	for i, code := range codes {
		want := 1
		if i == 7 {
			want = 0
		}
		if _, moves, _ := s.Load(ctx, code, 0); len(moves) != want {
			t.Errorf("room %s holds %d moves, want %d", code, len(moves), want)
		}
	}
	t.Logf("%d moves in %d commits", rooms-1, commits)
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
