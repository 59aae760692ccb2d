package room

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// roomRig is a room made from its env alone, with no Lobby: a memory
// store, the real clock, and counters for what the room tells the world.
type roomRig struct {
	env            *Env
	st             store.Store
	listed, claims atomic.Int32
}

func newRoomRig() *roomRig {
	g := &roomRig{st: mem.New()}
	g.env = &Env{Store: g.st, Writes: g.st, Now: time.Now, AfterFunc: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop },
		Seed: func() uint64 { return 7 }, Pauses: NewPauses(0), Log: slog.New(slog.DiscardHandler), Observer: NoObserver{},
		Fault: func(string, error, ...any) {}, Away: func() bool { return false }, PresenceTTL: 15 * time.Second,
		Listed: func() { g.listed.Add(1) }, Claim: func(*Room) { g.claims.Add(1) },
		Record: func(context.Context, store.Meta) (*store.Outcome, error) { return &store.Outcome{}, nil },
		ChatLine: func(_ Player, name string, seat int, channel, text string) (store.ChatLine, error) {
			return chat.NewLine(name, seat, channel, text, time.Now())
		}}
	return g
}

// open stores a new room of seats seats and makes it, as a lobby's load
// would.
func (g *roomRig) open(t *testing.T, code string, seats int) *Room {
	t.Helper()
	m := store.Meta{Code: code, Game: tallyGame().Name(), Public: true, Seats: make([]store.Seat, seats), Seed: 1,
		Created: t0, Updated: t0, Version: 1}
	if err := g.st.Create(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	r := New(g.env, tallyGame(), m)
	if err := r.rebuild(m, nil); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRoomStandsWithoutALobby makes a room from its env, seats two
// players, plays a move and finds it stored, shown to both seats, and
// the room's listing told through the env's callbacks; with no other
// instance, no presence claim is asked for.
func TestRoomStandsWithoutALobby(t *testing.T) {
	ctx := context.Background()
	g := newRoomRig()
	r := g.open(t, "ROOMA", 2)
	ann, err := r.join(ctx, Player{ID: "key:ann", Name: "ann"}, "")
	if err != nil {
		t.Fatal(err)
	}
	ben, err := r.join(ctx, Player{ID: "key:ben", Name: "ben"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if g.claims.Load() != 0 {
		t.Errorf("claims asked: %d, want none with no shared presence", g.claims.Load())
	}
	u := latest(t, ann)
	if !u.Room.Started || len(u.Room.Seats) != 2 || u.Room.Seats[1].Name != "ben" {
		t.Fatalf("after both sat: %+v", u.Room)
	}
	v := view(t, u)
	listed := g.listed.Load()
	raw, _ := json.Marshal(pick(v.Legal))
	if err := ann.Move(ctx, raw); err != nil {
		t.Fatalf("move: %v", err)
	}
	if _, moves, err := g.st.Load(ctx, "ROOMA", 0); err != nil || len(moves) != 1 {
		t.Fatalf("stored moves: %d (%v), want 1", len(moves), err)
	}
	if got := latest(t, ben).Version; got != 1 {
		t.Errorf("ben's view is at move %d, want 1", got)
	}
	if g.listed.Load() <= listed {
		t.Errorf("room lists not told of the first move (round and who acts changed)")
	}
	ann.Close()
	ben.Close()
}
