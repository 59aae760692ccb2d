package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// The lists' cases share the store with others' rooms (and, on Redis,
// with earlier cases'), so each makes rooms of its own players, dated
// far from t0 where the list it reads orders them first, and looks for
// its own codes.

// future is a time after every other case's rooms, a new one each call,
// so the newest-first lists show this case's rooms first.
var future = t0.AddDate(100, 0, 0)

func later() time.Time {
	future = future.Add(time.Hour)
	return future
}

// listRoom is a public room of three seats, its host in the first, made at at.
func listRoom(at time.Time) store.Meta {
	host := "key:" + newCode()
	return store.Meta{Code: newCode(), Game: "a-game", Public: true, Host: host, HostAddr: "addr-" + newCode(),
		Seats:   []store.Seat{{Player: host, Name: "hana"}, {}, {}},
		Created: at, Updated: at, Version: 1}
}

// codes lists the codes of metas.
func codes(metas []store.Meta) []string {
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Code
	}
	return out
}

// where says which lists hold room code (among the first 20), as
// "open play mine done": mine for player's unfinished, done for finished.
func where(t *testing.T, s store.Lists, code, player string) string {
	t.Helper()
	ctx := context.Background()
	var in []string
	open, err := s.OpenSeats(ctx, 20)
	if err != nil {
		t.Fatal(err)
	}
	play, err := s.InPlay(ctx, 20)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := s.PlayerRooms(ctx, player, 20)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(codes(open), code) {
		in = append(in, "open")
	}
	if slices.Contains(codes(play), code) {
		in = append(in, "play")
	}
	for _, m := range mine {
		if m.Code == code && m.Over {
			in = append(in, "done")
		} else if m.Code == code {
			in = append(in, "mine")
		}
	}
	return fmt.Sprint(in)
}

// listsFollowRoom: a room enters and leaves each list as it is created,
// seated, started, finished and deleted, and the quota counts follow.
func listsFollowRoom(t *testing.T, s store.Store) {
	ctx := context.Background()
	at := later()
	m := listRoom(at)
	guest := "key:" + newCode()
	counts := func(want store.RoomCounts) {
		t.Helper()
		got, err := s.RoomCounts(ctx, m.Host, m.HostAddr, at.Add(-time.Hour), 10)
		if err != nil || got != want {
			t.Fatalf("counts %+v (%v), want %+v", got, err, want)
		}
	}
	step := func(what, player, want string) {
		t.Helper()
		if got := where(t, s, m.Code, player); got != want {
			t.Fatalf("%s: room in %s of %s's lists, want %s", what, got, player, want)
		}
	}
	counts(store.RoomCounts{})
	if err := s.Create(ctx, m); err != nil {
		t.Fatal(err)
	}
	step("created", m.Host, "[open mine]")
	step("created", guest, "[open]")
	counts(store.RoomCounts{Made: 1, AddrMade: 1, Open: 1, AddrOpen: 1})

	m.Seats[1] = store.Seat{Player: guest, Name: "gus"}
	m.Version++
	if err := s.SaveMeta(ctx, m); err != nil {
		t.Fatal(err)
	}
	step("seated", guest, "[open mine]")

	m.Seats[1] = store.Seat{}
	m.Version++
	if err := s.SaveMeta(ctx, m); err != nil {
		t.Fatal(err)
	}
	step("left", guest, "[open]")

	m.Seats[1], m.Seats[2] = store.Seat{Player: guest, Name: "gus"}, store.Seat{Bot: "greedy", Name: "greedy bot"}
	m.Started, m.StartedAt, m.Version = true, at.Add(time.Minute), m.Version+1
	if err := s.SaveMeta(ctx, m); err != nil {
		t.Fatal(err)
	}
	step("started", guest, "[play mine]")
	if err := s.Append(ctx, m.Code, 0, rec(0, `{"kind":"done"}`, at.Add(2*time.Minute)), engine.Status{Round: 1}); err != nil {
		t.Fatal(err)
	}
	step("moved", m.Host, "[play mine]")
	counts(store.RoomCounts{Made: 1, AddrMade: 1, Open: 1, AddrOpen: 1})

	end := &engine.Result{Scores: []int{3, 1, 2}, Winners: []int{0}}
	if err := s.Append(ctx, m.Code, 1, rec(1, `{"kind":"done"}`, at.Add(3*time.Minute)), engine.Status{Round: 1, Over: true, Result: end}); err != nil {
		t.Fatal(err)
	}
	step("finished", guest, "[done]")
	step("finished", m.Host, "[done]")
	counts(store.RoomCounts{Made: 1, AddrMade: 1})

	if err := s.Delete(ctx, m.Code); err != nil {
		t.Fatal(err)
	}
	step("deleted", guest, "[]")
	// A deleted room was made all the same: the hour's count keeps it.
	counts(store.RoomCounts{Made: 1, AddrMade: 1})
	if got, err := s.RoomCounts(ctx, m.Host, m.HostAddr, at.Add(time.Second), 10); err != nil || got.Made != 0 {
		t.Fatalf("rooms made after the room: %+v (%v), want none", got, err)
	}
}

// listsPages: pages are ordered, bounded and the same when read again,
// and a player's unfinished games come before the finished ones.
func listsPages(t *testing.T, s store.Store) {
	ctx := context.Background()
	var made []store.Meta
	player := "key:" + newCode()
	for i := range 4 {
		m := listRoom(later())
		m.Seats[1] = store.Seat{Player: player, Name: "pat"}
		if i < 2 { // the first two are in play, started the other way round
			m.Seats[2] = store.Seat{Bot: "greedy", Name: "greedy bot"}
			m.Started, m.StartedAt = true, t0.AddDate(200, 0, 0).Add(time.Duration(10-i)*time.Minute)
		}
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
		made = append(made, m)
	}
	t.Cleanup(func() {
		for _, m := range made {
			_ = s.Delete(ctx, m.Code)
		}
	})
	for range 2 {
		open, err := s.OpenSeats(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{made[3].Code, made[2].Code}; !slices.Equal(codes(open), want) {
			t.Fatalf("open seats %v, want the newest first %v", codes(open), want)
		}
		play, err := s.InPlay(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{made[0].Code}; !slices.Equal(codes(play), want) {
			t.Fatalf("in play %v, want the latest started %v", codes(play), want)
		}
	}
	end := &engine.Result{Scores: []int{1, 2, 3}, Winners: []int{2}}
	if err := s.Append(ctx, made[3].Code, 0, rec(0, `{"kind":"done"}`, later()), engine.Status{Over: true, Result: end}); err != nil {
		t.Fatal(err)
	}
	mine, err := s.PlayerRooms(ctx, player, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{made[2].Code, made[1].Code, made[0].Code, made[3].Code}; !slices.Equal(codes(mine), want) {
		t.Fatalf("%s's rooms %v, want the unfinished newest first, then the finished: %v", player, codes(mine), want)
	}
	if mine, err := s.PlayerRooms(ctx, player, 2); err != nil || !slices.Equal(codes(mine), []string{made[2].Code, made[1].Code}) {
		t.Fatalf("%s's first two rooms %v (%v), want %v", player, codes(mine), err, []string{made[2].Code, made[1].Code})
	}
}

// past is a time before every other case's rooms, a new one each call,
// so the due list, oldest first, shows this case's rooms first.
var past = t0.AddDate(-100, 0, 0)

func earlier() time.Time {
	past = past.Add(-24 * time.Hour)
	return past
}

// listsDue: the due list holds the unfinished rooms untouched since a
// time, oldest first; a move takes a room out until it is untouched
// again, and finishing or deleting it takes it out for good.
func listsDue(t *testing.T, s store.Store) {
	ctx := context.Background()
	at := earlier()
	var made []store.Meta
	for i := range 3 {
		m := listRoom(at.Add(time.Duration(i) * time.Minute))
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
		made = append(made, m)
	}
	due := func(before time.Time, limit int, want ...store.Meta) {
		t.Helper()
		got, err := s.Due(ctx, before, limit)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(codes(got), codes(want)) {
			t.Fatalf("due before %v: %v, want %v", before, codes(got), codes(want))
		}
	}
	due(at.Add(90*time.Second), 10, made[0], made[1])
	due(at.Add(90*time.Second), 1, made[0])
	due(at.Add(time.Hour), 10, made...)
	// A move, though it writes no list, takes the room out until then.
	if err := s.Append(ctx, made[0].Code, 0, rec(0, `{"kind":"done"}`, at.Add(3*time.Minute)), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	due(at.Add(90*time.Second), 10, made[1])
	due(at.Add(time.Hour), 10, made[1], made[2], made[0])
	end := &engine.Result{Scores: []int{1, 0, 0}, Winners: []int{0}}
	if err := s.Append(ctx, made[1].Code, 0, rec(0, `{"kind":"done"}`, at.Add(time.Second)), engine.Status{Over: true, Result: end}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, made[2].Code); err != nil {
		t.Fatal(err)
	}
	due(at.Add(time.Hour), 10, made[0])
	if err := s.Delete(ctx, made[0].Code); err != nil {
		t.Fatal(err)
	}
	due(at.Add(time.Hour), 10)
}
