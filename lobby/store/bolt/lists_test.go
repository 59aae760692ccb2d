package bolt

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// TestListsChangeOnlyWithTheFile: every room write changes the lists
// only once its transaction commits, so a transaction that fails after
// the write (the group's shared commit failing for another writer's
// sake, say) leaves the lists showing what the file holds.
func TestListsChangeOnlyWithTheFile(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "rooms.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	open := store.Meta{Code: "OPEN01", Game: "factories", Public: true, Host: "key:h", HostAddr: "10.0.0.1",
		Seats: []store.Seat{{Player: "key:h"}, {}}, Created: at, Updated: at, Version: 1}
	play := open
	play.Code, play.Started, play.StartedAt = "PLAY01", true, at
	play.Seats = []store.Seat{{Player: "key:h"}, {Player: "key:g"}}
	for _, m := range []store.Meta{open, play} {
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	started := open
	started.Version, started.Started, started.StartedAt = 2, true, at.Add(time.Minute)
	started.Seats = []store.Seat{{Player: "key:h"}, {Player: "key:g"}}
	fresh := open
	fresh.Code = "NEW001"
	end := engine.Status{Round: 9, Over: true, Result: &engine.Result{Scores: []int{3, 1}, Ranks: []int{1, 2}}}
	rec := store.Record{Seat: 0, Move: []byte(`"pass"`), At: at.Add(time.Hour)}
	before := snapshot(t, s, at)
	errFailed := errors.New("the commit failed")
	for name, write := range map[string]func(*bolt.Tx) error{
		"Create":   func(tx *bolt.Tx) error { return s.create(tx, fresh) },
		"SaveMeta": func(tx *bolt.Tx) error { return s.saveMeta(tx, started) },
		"Append":   func(tx *bolt.Tx) error { return s.append(tx, play.Code, 0, rec, end) },
		"Delete":   func(tx *bolt.Tx) error { return s.delete(tx, open.Code) },
	} {
		err := s.write(ctx, func(tx *bolt.Tx) error {
			if err := write(tx); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return errFailed
		})
		if !errors.Is(err, errFailed) {
			t.Fatalf("%s in a failed transaction: %v, want its failure", name, err)
		}
		if got := snapshot(t, s, at); got != before {
			t.Fatalf("%s that failed changed the lists:\n got %s\nwant %s", name, got, before)
		}
	}
	// The same writes committed do change them.
	if err := s.SaveMeta(ctx, started); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, play.Code, 0, rec, end); err != nil {
		t.Fatal(err)
	}
	want := "open [] play [OPEN01] mine [OPEN01 PLAY01] due [OPEN01] counts {Made:2 AddrMade:2 Open:1 AddrOpen:1}"
	if got := snapshot(t, s, at); got != want {
		t.Fatalf("after the writes committed:\n got %s\nwant %s", got, want)
	}
}

// snapshot says what every list shows of s.
func snapshot(t *testing.T, s *Store, at time.Time) string {
	t.Helper()
	ctx := context.Background()
	codes := func(metas []store.Meta, err error) []string {
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, m := range metas {
			out = append(out, m.Code)
		}
		return out
	}
	c, err := s.RoomCounts(ctx, "key:h", "10.0.0.1", at, 10)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("open %v play %v mine %v due %v counts %+v",
		codes(s.OpenSeats(ctx, 10)), codes(s.InPlay(ctx, 10)), codes(s.PlayerRooms(ctx, "key:h", 10)),
		codes(s.Due(ctx, at.Add(24*time.Hour), 10)), c)
}
