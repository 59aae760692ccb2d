package lobby

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
)

// factoriesView reads a Fantastic Factories view from an update.
func factoriesView(t *testing.T, u Update) factories.View {
	t.Helper()
	var v factories.View
	if err := json.Unmarshal(u.View, &v); err != nil {
		t.Fatalf("view: %v (%s)", err, u.View)
	}
	return v
}

// TestUndoLeavesOnlyWhatStandsInTheLog plays a real game of Fantastic
// Factories to its first work phase, where alice puts a die on her
// Headquarters and takes it back: bob's and a spectator's logs show only
// what stands (and that she took a move back), hers what she took back,
// bob sees the board as before, and a lobby rebuilt from the store after a
// restart words every log the same way.
func TestUndoLeavesOnlyWhatStandsInTheLog(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	games := []Game{{Rules: factories.Rules}}
	l := New(Config{Store: st, Games: games})
	meta, conns, w := factoriesRoom(t, l)
	a, b := conns[0], conns[1]
	playMarket(t, conns)
	v := factoriesView(t, latest(t, a))
	i := slices.IndexFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Place && m.Action != factories.Research })
	if i < 0 {
		t.Fatalf("alice has no die to put on generate or mine: %+v", v.Legal)
	}
	place, _ := json.Marshal(v.Legal[i])
	if err := b.Move(ctx, engine.UndoMove()); err == nil || !strings.Contains(err.Error(), "nothing to take back") {
		t.Fatalf("bob's undo before any move of his: %v", err)
	}
	beforeB, beforeW := latest(t, b), latest(t, w)
	if err := a.Move(ctx, place); err != nil {
		t.Fatal(err)
	}
	played := latest(t, b).Log
	if len(played) != len(beforeB.Log)+1 || !strings.HasPrefix(played[len(played)-1], "alice ") {
		t.Fatalf("bob's log after alice's move: %q", played)
	}
	did := strings.TrimPrefix(played[len(played)-1], "alice ")
	// bob cannot take back alice's move.
	if err := b.Move(ctx, engine.UndoMove()); err == nil || !strings.Contains(err.Error(), "nothing to take back") {
		t.Fatalf("bob's undo of alice's move: %v", err)
	}
	if err := a.Move(ctx, engine.UndoMove()); err != nil {
		t.Fatal(err)
	}
	afterB, afterW, afterA := latest(t, b), latest(t, w), latest(t, a)
	for _, c := range []struct {
		who           string
		before, after Update
	}{{"bob", beforeB, afterB}, {"carol", beforeW, afterW}} {
		want := append(slices.Clone(c.before.Log), "alice took back a move")
		if !slices.Equal(c.after.Log, want) {
			t.Errorf("%s's log after the undo:\n%q\nwant\n%q", c.who, c.after.Log, want)
		}
		if string(c.after.View) != string(c.before.View) {
			t.Errorf("%s sees the board otherwise than before alice's move", c.who)
		}
	}
	if got, want := afterA.Log[len(afterA.Log)-1], "You took back: "+did; got != want {
		t.Errorf("alice's last log line %q; want %q", got, want)
	}
	if slices.Contains(afterA.Log, "You "+did) {
		t.Errorf("alice's log still shows the move she took back: %q", afterA.Log)
	}
	if afterA.Version != beforeB.Version+2 {
		t.Errorf("version %d; want the move and the undo both stored", afterA.Version)
	}
	for _, c := range []*Conn{a, b, w} {
		c.Close()
	}
	st.Close()

	checkUndoReplayed(t, path, games, meta.Code, afterA, afterB, did)
}

// factoriesRoom makes a public room of Fantastic Factories on l, seed
// 16, with alice and bob at its seats and carol watching.
func factoriesRoom(t *testing.T, l *Lobby) (store.Meta, map[int]*Conn, *Conn) {
	t.Helper()
	ctx := context.Background()
	alice, bob, carol := Player{ID: "key:a", Name: "alice"}, Player{ID: "key:b", Name: "bob"}, Player{ID: "key:c", Name: "carol"}
	meta, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Seed: 16, HasSeed: true, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	conns := map[int]*Conn{}
	for _, p := range []Player{alice, bob} {
		c, err := l.Join(ctx, meta.Code, p)
		if err != nil {
			t.Fatal(err)
		}
		conns[c.Seat()] = c
	}
	w, err := l.Watch(ctx, meta.Code, carol)
	if err != nil {
		t.Fatal(err)
	}
	return meta, conns, w
}

// playMarket plays a game of Fantastic Factories through its market
// phase: each seat takes the first blueprint it may.
func playMarket(t *testing.T, conns map[int]*Conn) {
	t.Helper()
	for factoriesView(t, latest(t, conns[0])).Phase == factories.MarketPhase {
		turn := factoriesView(t, latest(t, conns[0])).Turn
		v := factoriesView(t, latest(t, conns[turn]))
		i := slices.IndexFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Take })
		raw, _ := json.Marshal(v.Legal[i])
		if err := conns[turn].Move(context.Background(), raw); err != nil {
			t.Fatal(err)
		}
	}
}

// checkUndoReplayed checks, after a restart on the bolt file at path,
// that room code is rebuilt from its stored moves, undo and all: alice
// and bob find the logs and views of afterA and afterB, and the replay
// steps through alice's move (did) and its undo.
func checkUndoReplayed(t *testing.T, path string, games []Game, code string, afterA, afterB Update, did string) {
	t.Helper()
	ctx := context.Background()
	alice, bob, carol := Player{ID: "key:a", Name: "alice"}, Player{ID: "key:b", Name: "bob"}, Player{ID: "key:c", Name: "carol"}
	// A restart: the room is rebuilt from the stored moves, undo and all.
	store2, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	l2 := New(Config{Store: store2, Games: games})
	for _, c := range []struct {
		p    Player
		want Update
	}{{alice, afterA}, {bob, afterB}} {
		conn, err := l2.Join(ctx, code, c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := latest(t, conn); !slices.Equal(got.Log, c.want.Log) || string(got.View) != string(c.want.View) {
			t.Errorf("%s after the restart:\n%q\nwant\n%q", c.p.Name, got.Log, c.want.Log)
		}
		conn.Close()
	}
	// The replay steps through both moves: the die placed, then taken back.
	if err := l2.End(ctx, code, alice); err != nil {
		t.Fatal(err)
	}
	_, frames, err := l2.Replay(ctx, code, carol)
	if err != nil {
		t.Fatal(err)
	}
	n := len(frames)
	if n != afterA.Version+1 {
		t.Fatalf("%d frames for %d moves", n, afterA.Version)
	}
	if placed, undone := frames[n-2], frames[n-1]; !slices.Equal(placed.Log, []string{"alice " + did}) ||
		!slices.Equal(undone.Log, []string{"alice took back a move"}) || undone.Seat != 0 || string(undone.View) != string(frames[n-3].View) {
		t.Errorf("the replay's last frames: %q then %q", placed.Log, undone.Log)
	}
}
