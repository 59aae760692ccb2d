package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

func roomsCreate(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	m := mustCreate(t, s)
	other := m
	other.Host = "key:someone-else"
	if err := s.Create(ctx, other); !errors.Is(err, store.ErrExists) {
		t.Fatalf("second create with code %s: %v, want ErrExists", m.Code, err)
	}
	got, moves, err := s.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMeta(got, m) || len(moves) != 0 {
		t.Fatalf("loaded %+v with %d moves, want %+v and none", got, len(moves), m)
	}
	if _, _, err := s.Load(ctx, "NOSUCH", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("load of a missing room: %v, want ErrNotFound", err)
	}
}

func roomsAppend(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	m := mustCreate(t, s)
	if err := s.Append(ctx, m.Code, 1, rec(0, `{"kind":"take"}`, t0), engine.Status{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("append at 1 to an empty log: %v, want ErrConflict", err)
	}
	first := rec(0, `{"kind":"take","slot":1}`, t0.Add(time.Second))
	if err := s.Append(ctx, m.Code, 0, first, engine.Status{Round: 3, Acting: []int{1, 0}}); err != nil {
		t.Fatal(err)
	}
	// The round and the acting seats are stored with the move, for lists
	// of rooms nobody has loaded.
	if got, _, err := s.Load(ctx, m.Code, 0); err != nil || got.Round != 3 || !slices.Equal(got.Acting, []int{1, 0}) || got.Over {
		t.Fatalf("after the first move: round %d acting %v over %v (%v), want round 3 acting [1 0]", got.Round, got.Acting, got.Over, err)
	}
	// A second writer who also saw an empty log loses.
	if err := s.Append(ctx, m.Code, 0, rec(1, `{"kind":"take","slot":2}`, t0.Add(2*time.Second)), engine.Status{}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("append at 0 to a log of 1: %v, want ErrConflict", err)
	}
	last := rec(1, `{"kind":"done"}`, t0.Add(time.Minute))
	last.Bot = "first" // a bot played it for the seat's person
	end := &engine.Result{Scores: []int{12, 30}, Ranks: []int{2, 1}, Winners: []int{1}}
	if err := s.Append(ctx, m.Code, 1, last, engine.Status{Round: 4, Over: true, Result: end}); err != nil {
		t.Fatal(err)
	}
	got, moves, err := s.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(moves, []store.Record{first, last}, sameRecord) {
		t.Fatalf("log %+v, want [%+v %+v]", moves, first, last)
	}
	if !got.Over || !got.Updated.Equal(last.At) || got.Version != m.Version || got.Round != 4 || len(got.Acting) != 0 {
		t.Fatalf("after the last move: over %v updated %v version %d round %d acting %v", got.Over, got.Updated, got.Version, got.Round, got.Acting)
	}
	if got.Result == nil || !slices.Equal(got.Result.Scores, end.Scores) || !slices.Equal(got.Result.Winners, end.Winners) {
		t.Fatalf("after the last move: result %+v, want %+v", got.Result, end)
	}
	if err := s.Append(ctx, "NOSUCH", 0, first, engine.Status{}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("append to a missing room: %v, want ErrNotFound", err)
	}
}

func roomsSaveMeta(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	m := mustCreate(t, s)
	next := m
	next.Seats = []store.Seat{{Player: "key:h", Name: "hana"}, {Player: "key:g", Name: "gus"}}
	next.Started, next.Version, next.Updated = true, 2, t0.Add(time.Hour)
	if err := s.SaveMeta(ctx, next); err != nil {
		t.Fatal(err)
	}
	stale := next // a writer who also read version 1
	stale.Public = false
	if err := s.SaveMeta(ctx, stale); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("save over version 2 as version 2: %v, want ErrConflict", err)
	}
	skip := next
	skip.Version = 4
	if err := s.SaveMeta(ctx, skip); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("save version 4 over 2: %v, want ErrConflict", err)
	}
	got, _, err := s.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMeta(got, next) {
		t.Fatalf("stored %+v, want %+v", got, next)
	}
	missing := testMeta()
	missing.Version = 2
	if err := s.SaveMeta(ctx, missing); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("save of a missing room: %v, want ErrNotFound", err)
	}
}

func roomsMovesSince(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	m := mustCreate(t, s)
	var all []store.Record
	for i := range 5 {
		r := rec(i%2, `{"kind":"done"}`, t0.Add(time.Duration(i)*time.Second))
		if err := s.Append(ctx, m.Code, i, r, engine.Status{}); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	for _, from := range []int{0, 2, 4, 5, 9} {
		meta, got, err := s.Load(ctx, m.Code, from)
		if err != nil {
			t.Fatal(err)
		}
		want := all[min(from, len(all)):]
		if !slices.EqualFunc(got, want, sameRecord) || meta.Moves != len(all) {
			t.Fatalf("load from %d: %d records of a log of %d, want %d of %d", from, len(got), meta.Moves, len(want), len(all))
		}
	}
	if _, _, err := s.Load(ctx, "NOSUCH", 3); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("load from 3 of a missing room: %v, want ErrNotFound", err)
	}
}

func roomsList(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	a, b := mustCreate(t, s), mustCreate(t, s)
	if err := s.Append(ctx, b.Code, 0, rec(0, `{"kind":"done"}`, t0.Add(time.Hour)), engine.Status{Round: 2, Over: true, Result: &engine.Result{Winners: []int{0}}}); err != nil {
		t.Fatal(err)
	}
	list, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Other cases' rooms (or, with REDIS_URL, anyone's) may be listed too.
	found := map[string]store.Meta{}
	for _, m := range list {
		found[m.Code] = m
	}
	if got, ok := found[a.Code]; !ok || !sameMeta(got, a) {
		t.Fatalf("room %s listed as %+v (listed: %v)", a.Code, got, ok)
	}
	if got := found[b.Code]; !got.Over || !got.Updated.Equal(t0.Add(time.Hour)) || !got.Result.Won(0) || got.Round != 2 {
		t.Fatalf("room %s listed without its last move: over %v updated %v result %+v round %d", b.Code, got.Over, got.Updated, got.Result, got.Round)
	}
}

func roomsDelete(t *testing.T, s store.Rooms) {
	ctx := context.Background()
	m := mustCreate(t, s)
	if err := s.Append(ctx, m.Code, 0, rec(0, `{"kind":"done"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, m.Code); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(ctx, m.Code, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("load after delete: %v, want ErrNotFound", err)
	}
	list, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(list, func(x store.Meta) bool { return x.Code == m.Code }) {
		t.Fatalf("room %s still listed after delete", m.Code)
	}
	// The code is free again, and the new room starts with an empty log.
	if err := s.Create(ctx, m); err != nil {
		t.Fatalf("create after delete: %v", err)
	}
	if meta, moves, err := s.Load(ctx, m.Code, 0); err != nil || len(moves) != 0 || meta.Moves != 0 {
		t.Fatalf("recreated room has %d moves (log of %d), %v", len(moves), meta.Moves, err)
	}
	if err := s.Delete(ctx, "NOSUCH"); err != nil {
		t.Fatalf("delete of a missing room: %v", err)
	}
}

// sameMeta compares metadata as stored: times by instant, JSON by bytes.
func sameMeta(a, b store.Meta) bool {
	a.Created, b.Created = a.Created.UTC(), b.Created.UTC()
	a.Updated, b.Updated = a.Updated.UTC(), b.Updated.UTC()
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func sameRecord(a, b store.Record) bool {
	return a.Seat == b.Seat && string(a.Move) == string(b.Move) && a.At.Equal(b.At) && a.Bot == b.Bot
}
