package bolt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := bolt.Open(filepath.Join(t.TempDir(), "rooms.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// The free pages' list is not written at every commit (NoFreelistSync):
// bbolt finds the free pages again when it opens the file. A store
// reopened after rooms were written and deleted has every room and move
// that was kept, and goes on taking moves into the pages it freed.
func TestReopenFindsTheFreePages(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rooms.db")
	open := func() *bolt.Store {
		s, err := bolt.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	move := func(s *bolt.Store, code string, at int) {
		r := store.Record{Seat: at % 2, Move: json.RawMessage(`{"kind":"pass"}`), At: time.Unix(int64(at), 0).UTC()}
		if err := s.Append(ctx, code, at, r, engine.Status{Round: at}); err != nil {
			t.Fatalf("append %s %d: %v", code, at, err)
		}
	}
	s := open()
	for i := range 40 {
		code := fmt.Sprintf("R%03d", i)
		if err := s.Create(ctx, store.Meta{Code: code, Game: "factories", Host: "h"}); err != nil {
			t.Fatal(err)
		}
		for at := range 30 {
			move(s, code, at)
		}
	}
	for i := range 40 {
		if i%2 == 1 {
			if err := s.Delete(ctx, fmt.Sprintf("R%03d", i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.Close()
	for round := range 2 {
		s = open()
		rooms, err := s.List(ctx)
		if err != nil || len(rooms) != 20 {
			t.Fatalf("reopened (%d): %d rooms, %v; want 20", round, len(rooms), err)
		}
		for i := 0; i < 40; i += 2 {
			code := fmt.Sprintf("R%03d", i)
			_, moves, err := s.Load(ctx, code, 0)
			if err != nil || len(moves) != 30+round*30 {
				t.Fatalf("reopened (%d): %s has %d moves, %v; want %d", round, code, len(moves), err, 30+round*30)
			}
			for at := len(moves); at < len(moves)+30; at++ {
				move(s, code, at)
			}
		}
		s.Close()
	}
}

// TestReopenListsEveryRoom: the lists live in memory and are built from
// the file when it opens, so a reopened store lists what it held.
func TestReopenListsEveryRoom(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rooms.db")
	s, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	open := store.Meta{Code: "OPEN01", Game: "factories", Public: true, Host: "key:h", HostAddr: "10.0.0.1",
		Seats: []store.Seat{{Player: "key:h"}, {}}, Created: at, Updated: at, Version: 1}
	over := open
	over.Code, over.Over, over.Seats = "OVER01", true, []store.Seat{{Player: "key:h"}, {Player: "key:g"}}
	for _, m := range []store.Meta{open, over} {
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = bolt.Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seats, err := s.OpenSeats(ctx, 10)
	if err != nil || len(seats) != 1 || seats[0].Code != open.Code {
		t.Fatalf("reopened: open seats %v (%v), want %s", seats, err, open.Code)
	}
	mine, err := s.PlayerRooms(ctx, "key:h", 10)
	if err != nil || len(mine) != 2 || mine[0].Code != open.Code || mine[1].Code != over.Code {
		t.Fatalf("reopened: the host's rooms %v (%v), want %s then %s", mine, err, open.Code, over.Code)
	}
	due, err := s.Due(ctx, at.Add(time.Minute), 10)
	if err != nil || len(due) != 1 || due[0].Code != open.Code {
		t.Fatalf("reopened: due %v (%v), want %s", due, err, open.Code)
	}
	c, err := s.RoomCounts(ctx, "key:h", "10.0.0.1", at, 10)
	if want := (store.RoomCounts{Made: 2, AddrMade: 2, Open: 1, AddrOpen: 1}); err != nil || c != want {
		t.Fatalf("reopened: counts %+v (%v), want %+v", c, err, want)
	}
}
