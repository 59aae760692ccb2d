package lobby

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/internal/waittest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

func newLobby(t testing.TB, st store.Store) *Lobby {
	t.Helper()
	return New(Config{Store: st, Games: []Game{tallyGame()}})
}

// next waits for the connection's next update.
func next(t *testing.T, c *Conn) Update {
	t.Helper()
	select {
	case u := <-c.Updates():
		u.WordLog() // as play does, for the tests reading the log
		return u
	case <-time.After(5 * time.Second):
		t.Fatal("no update within 5s")
	}
	return Update{}
}

// t0 is the tests' fixed time.
var t0 = time.Date(2026, 3, 4, 5, 6, 7, 890000000, time.UTC)

// eventually waits for a state no channel announces (a store's contents,
// a subscriber list, the time a store keeps).
var eventually = waittest.Until

// seen remembers each connection's newest update, as a session does.
var seen sync.Map

// latest returns the connection's newest update, waiting only for its first.
func latest(t *testing.T, c *Conn) Update {
	t.Helper()
	u, ok := seen.Load(c)
	if !ok {
		u = next(t, c)
	}
	for {
		select {
		case u = <-c.Updates():
		default:
			w := u.(Update)
			w.WordLog()
			seen.Store(c, w)
			return w
		}
	}
}

func view(t *testing.T, u Update) tally.View {
	t.Helper()
	var v tally.View
	if err := json.Unmarshal(u.View, &v); err != nil {
		t.Fatalf("view: %v (%s)", err, u.View)
	}
	return v
}

// playOut plays legal moves for every connection until the game ends,
// waiting for the room's bots when nobody here may move. Each connection
// is asked only once its view shows every move played so far: a view an
// update behind offers its player a turn already played (refused), or
// has the test wait for a bot's move it has already seen.
func playOut(t *testing.T, conns map[int]*Conn) {
	t.Helper()
	ctx := context.Background()
	moves := 0 // what every connection is to have seen
	for range 20000 {
		played := false
		for seat, c := range conns {
			u := atLeast(t, c, moves)
			v := view(t, u)
			if v.Over {
				return
			}
			if len(v.Legal) == 0 {
				continue
			}
			raw, _ := json.Marshal(v.Legal[0])
			if err := c.Move(ctx, raw); err != nil {
				t.Fatalf("seat %d move %s: %v", seat, raw, err)
			}
			moves, played = u.Version+1, true
		}
		if !played {
			moves++ // a bot's turn: wait for its move
		}
	}
	t.Fatal("game did not end")
}

// atLeast returns c's newest update once it shows at least n moves.
func atLeast(t *testing.T, c *Conn, n int) Update {
	t.Helper()
	u := latest(t, c)
	for u.Version < n {
		u = next(t, c)
		seen.Store(c, u)
	}
	return u
}

func TestRoomLifecycle(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	meta, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true, Seed: 7, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Code) != CodeLength || strings.ContainsAny(meta.Code, "01ILO") {
		t.Fatalf("code %q is not 6 unambiguous characters", meta.Code)
	}
	a, err := l.Join(ctx, strings.ToLower(meta.Code), alice)
	if err != nil {
		t.Fatal(err)
	}
	if u := latest(t, a); u.Room.Started || u.View != nil {
		t.Fatalf("game started with one of two seats taken: %+v", u.Room)
	}
	if err := a.Move(ctx, json.RawMessage(`{"kind":"take"}`)); err == nil {
		t.Fatal("a move before the game started was accepted")
	}
	b, err := l.Join(ctx, meta.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Join(ctx, meta.Code, Player{ID: "key:carol", Name: "carol"}); err == nil {
		t.Fatal("a third player joined a full two-seat room")
	}
	w, err := l.Watch(ctx, meta.Code, Player{ID: "key:carol"})
	if err != nil {
		t.Fatal(err)
	}
	u := latest(t, a)
	if !u.Room.Started || u.Room.Spectators != 1 {
		t.Fatalf("room after two joins and a watcher: %+v", u.Room)
	}
	va, vw := view(t, u), view(t, latest(t, w))
	if len(va.HandSizes) != 2 || vw.Hand != nil || vw.Legal != nil || vw.Seat != engine.Spectator {
		t.Fatalf("alice sees %+v; the spectator sees %+v", va, vw)
	}
	if err := w.Move(ctx, json.RawMessage(`{"kind":"take"}`)); err == nil {
		t.Fatal("spectator move accepted")
	}
	// A refused move comes back with the engine's reason.
	wrong := a
	if va.Turn == 0 {
		wrong = b
	}
	if err := wrong.Move(ctx, json.RawMessage(`{"kind":"take"}`)); err == nil || !strings.Contains(err.Error(), "turn") {
		t.Fatalf("out-of-turn move: %v", err)
	}
	playOut(t, map[int]*Conn{0: a, 1: b})
	if u := latest(t, w); !u.Room.Over || view(t, u).Scores == nil {
		t.Fatalf("spectator did not see the end: %+v", u.Room)
	}
	hist, err := l.History(ctx, bob.ID)
	if err != nil || len(hist) != 1 || !hist[0].Over {
		t.Fatalf("bob's history: %+v, %v", hist, err)
	}
	info, frames, err := l.Replay(ctx, meta.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	if got := view(t, Update{View: frames[len(frames)-1].View}); !got.Over || len(frames) != 1+2*2*tally.Rounds || !info.Over {
		t.Fatalf("replay ends over=%v after %d frames; want the start and %d moves", got.Over, len(frames), 2*2*tally.Rounds)
	}
	for _, c := range []*Conn{a, b, w} {
		c.Close()
	}
}

// TestRestartResumes plays half a game on a bolt store, drops the lobby as
// a killed process would, and finishes it in a new lobby on the same file.
func TestRestartResumes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newLobby(t, st)
	p := Player{ID: "key:solo", Name: "solo"}
	meta, err := l.Create(ctx, p, CreateOptions{Seats: 1, Seed: 3, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, meta.Code, p)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		v := view(t, latest(t, c))
		raw, _ := json.Marshal(v.Legal[len(v.Legal)-1])
		if err := c.Move(ctx, raw); err != nil {
			t.Fatal(err)
		}
	}
	before := latest(t, c)
	st.Close()

	store2, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	restarted := time.Now().Truncate(time.Millisecond)
	l2 := newLobby(t, store2)
	// Until solo comes back, the seat is away since the restart, so the
	// others' screens can say whom they are waiting for.
	info, err := l2.Info(ctx, meta.Code, p)
	if err != nil {
		t.Fatal(err)
	}
	if s := info.Seats[0]; s.Connected || s.AwaySince.Before(restarted) || s.AwaySince.After(time.Now()) {
		t.Fatalf("seat not back after the restart shows %+v; want away since the restart at %v", s, restarted)
	}
	c2, err := l2.Join(ctx, meta.Code, p)
	if err != nil {
		t.Fatal(err)
	}
	after := latest(t, c2)
	if string(after.View) != string(before.View) || after.Version != 5 {
		t.Fatalf("resumed view differs:\nbefore %s\nafter  %s", before.View, after.View)
	}
	if s := after.Room.Seats[0]; !s.Connected || !s.AwaySince.IsZero() {
		t.Fatalf("seat back after the restart shows %+v", s)
	}
	playOut(t, map[int]*Conn{0: c2})
}

// tallyGame is the game the lobby's tests play: a tiny one that shows rooms
// run any ruleset without knowing it.
func tallyGame() Game { return Game{Rules: tally.Rules, Bots: tally.Bots()} }
