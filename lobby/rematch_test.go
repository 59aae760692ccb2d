package lobby

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// At a finished game's table a rematch is offered by one player and made
// when every person has accepted, bots at once: a new room of the same
// game, options, host and seats, each bound to its player, with a new
// seed, its game started. The old room's sessions learn its code.
// Before the end, and for anyone but a player, there is none.
func TestRematch(t *testing.T) {
	ctx := context.Background()
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}})
	alice, bob, carol := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}, Player{ID: "key:carol", Name: "carol"}
	m, err := l.Create(ctx, alice, CreateOptions{Seats: 3, Public: false, Seed: 9, HasSeed: true, Bots: []string{"first"},
		Grace: 5 * time.Minute, Clock: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := l.Join(ctx, m.Code, alice)
	b, _ := l.Join(ctx, m.Invite(), bob)
	w, _ := l.Watch(ctx, m.Invite(), carol)
	if _, err := l.Rematch(ctx, m.Code, alice); err == nil || !strings.Contains(err.Error(), "once the game is over") {
		t.Fatalf("a rematch mid-game: %v", err)
	}
	playOut(t, map[int]*Conn{0: a, 1: b})
	if _, err := l.Rematch(ctx, m.Invite(), carol); err == nil || !strings.Contains(err.Error(), "only the players") {
		t.Fatalf("a spectator's rematch: %v", err)
	}

	info, err := l.Rematch(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	if r := info.Rematch; r == nil || r.Code != "" || !slices.Equal(r.Accepted, []int{0, 2}) || !slices.Equal(r.Waiting(3), []int{1}) {
		t.Fatalf("after alice's offer: %+v", info.Rematch)
	}
	if again, err := l.Rematch(ctx, m.Code, alice); err != nil || !slices.Equal(again.Rematch.Accepted, []int{0, 2}) {
		t.Fatalf("alice accepting twice: %+v, %v", again.Rematch, err)
	}
	// Bob sees the offer in his room's updates.
	deadline := time.After(5 * time.Second)
	for u := latest(t, b); u.Room.Rematch == nil; u = next(t, b) {
		select {
		case <-deadline:
			t.Fatal("bob never saw the offer")
		default:
		}
	}

	info, err = l.Rematch(ctx, m.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	code := info.Rematch.Code
	if code == "" || code == m.Code {
		t.Fatalf("after every seat accepted: %+v", info.Rematch)
	}
	for _, c := range []*Conn{a, b, w} {
		if u := latest(t, c); u.Room.Rematch == nil || u.Room.Rematch.Code != code {
			t.Errorf("seat %d's update shows the rematch as %+v", c.Seat(), u.Room.Rematch)
		}
	}
	checkRematchRoom(t, l.cfg.Store, m.Code, code)
	// Bob joins by the code alone: his seat is bound to him.
	nb, err := l.Join(ctx, code, bob)
	if err != nil || nb.Seat() != 1 {
		t.Fatalf("bob joining the rematch: seat %v, %v", nb, err)
	}
	if u := next(t, nb); !u.Room.Started || view(t, u).Round != 1 {
		t.Errorf("the rematch has not started: %+v", u.Room)
	}
	// Asking again once it is made only says where it is.
	if again, err := l.Rematch(ctx, m.Code, alice); err != nil || again.Rematch.Code != code {
		t.Errorf("asking after it was made: %+v, %v", again.Rematch, err)
	}
}

// checkRematchRoom checks that in st the rematch code of room old is
// the same game at the same table: options, host and seats, a new seed
// and secret, its game started. The table's grace period and clock come
// along, and the room lists show its first round and who acts before
// anyone moves.
func checkRematchRoom(t *testing.T, st store.Store, old, code string) {
	t.Helper()
	ctx := context.Background()
	was, _, _ := st.Load(ctx, old, 0)
	got, _, err := st.Load(ctx, code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Game != was.Game || got.Public || got.Host != was.Host || !got.Started || got.Over || got.Seed == was.Seed ||
		!slices.Equal(got.Seats, was.Seats) || string(got.Options) != string(was.Options) || got.Secret == "" || got.Secret == was.Secret {
		t.Errorf("the rematch room %+v\nof %+v", got, was)
	}
	if got.Grace != 5*time.Minute || got.Clock != 90*time.Second || got.Round != 1 || len(got.Acting) == 0 {
		t.Errorf("the rematch room's grace %v, clock %v, round %d, acting %v", got.Grace, got.Clock, got.Round, got.Acting)
	}
}

// TestNoRematchOfStoppedGame: a game the host stopped has no rematch.
func TestNoRematchOfStoppedGame(t *testing.T) {
	ctx := context.Background()
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}})
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	m2, _ := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	l.Join(ctx, m2.Code, alice)
	l.Join(ctx, m2.Code, bob)
	if err := l.End(ctx, m2.Code, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Rematch(ctx, m2.Code, bob); err == nil || !strings.Contains(err.Error(), "stopped before its end") {
		t.Errorf("a rematch of a stopped game: %v", err)
	}
}

// Players on two instances sharing Redis accept at the same moment: one
// rematch room is made, and both instances' sessions learn its code.
func TestRematchAcrossInstances(t *testing.T) {
	g := newRedisGame(t, 13)
	g.play(t, -1)
	ctx := context.Background()
	// Each accepts once. SaveMeta's compare-and-set orders the two: the
	// acceptance stored second was judged against the first, so it found
	// every seat accepted and made the room.
	codes := make(chan string, 2)
	for _, p := range []struct {
		in *instance
		p  Player
	}{{g.a, g.alice}, {g.b, g.bob}} {
		go func() {
			info, err := p.in.lobby.Rematch(ctx, g.invite, p.p)
			if err != nil || info.Rematch == nil {
				t.Errorf("%s accepting: %+v, %v", p.p.Name, info.Rematch, err)
				codes <- ""
				return
			}
			codes <- info.Rematch.Code
		}()
	}
	c1, c2 := <-codes, <-codes
	if c1 == "" {
		c1, c2 = c2, c1
	}
	if c1 == "" || c2 != "" && c2 != c1 {
		t.Fatalf("the two acceptances made rematch rooms %q and %q", c1, c2)
	}
	for _, s := range g.all() {
		if _, err := s.await(5*time.Second, func(u Update) bool { return u.Room.Rematch != nil && u.Room.Rematch.Code == c1 }); err != nil {
			t.Fatal(err)
		}
	}
	metas, _ := g.a.store.List(ctx)
	made := 0
	for _, m := range metas {
		if m.Code != g.code && m.Started && !m.Over {
			made++
		}
	}
	if made != 1 {
		t.Errorf("%d rematch rooms made, want 1", made)
	}
	nb, err := g.b.lobby.Join(ctx, c1, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Seat int }
	if err := json.Unmarshal(next(t, nb).View, &v); err != nil || v.Seat != nb.Seat() || nb.Seat() != g.seats[1].c.Seat() {
		t.Errorf("bob in the rematch: seat %d, view %+v, %v", nb.Seat(), v, err)
	}
}
