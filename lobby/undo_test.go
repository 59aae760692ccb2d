package lobby

import (
	"context"
	"encoding/json"
	"fmt"
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

// TestUndoLog: the log part alone. An undo drops the lines of the seat's
// last standing move from every seat's log, tells the undoer what it took
// back and the others only that a move was taken back; a move taken back
// stands no more, so a second undo reaches the move before.
func TestUndoLog(t *testing.T) {
	seats := []store.Seat{{Name: "ann"}, {Name: "ben"}}
	var u undoLog
	u.record(0, 0, false, []engine.Event{{Seat: 0, Text: "took a card", Private: "took the 7"}})
	u.record(1, 1, false, []engine.Event{{Seat: 1, Text: "took a card"}})
	u.record(2, 0, false, []engine.Event{{Seat: 0, Text: "took another", Private: "took the 3"}})
	u.record(3, 0, false, []engine.Event{{Seat: 0, Kind: engine.Undo, Text: "took back a move"}})
	if got, want := worded(&u, 0, seats), []string{"You took the 7", "ben took a card", "You took back: took the 3"}; !slices.Equal(got, want) {
		t.Errorf("ann's log %q, want %q", got, want)
	}
	if got, want := worded(&u, 1, seats), []string{"ann took a card", "You took a card", "ann took back a move"}; !slices.Equal(got, want) {
		t.Errorf("ben's log %q, want %q", got, want)
	}
	u.record(4, 0, false, []engine.Event{{Seat: 0, Kind: engine.Undo, Text: "took back a move"}})
	if got, want := worded(&u, engine.Spectator, seats), []string{"ben took a card", "ann took back a move", "ann took back a move"}; !slices.Equal(got, want) {
		t.Errorf("a spectator's log after two undos %q, want %q", got, want)
	}
	// Ann has nothing standing: a third undo takes nothing from the log.
	u.record(5, 0, false, []engine.Event{{Seat: 0, Kind: engine.Undo, Text: "took back a move"}})
	if n := len(u.events); n != 4 {
		t.Errorf("after an undo with nothing standing the log has %d lines, want 4", n)
	}
	for i := range logSize + 10 {
		u.record(6+i, 1, false, []engine.Event{{Seat: 1, Text: "took a card"}})
	}
	if len(u.events) != logSize || len(u.standing[1]) != logSize {
		t.Errorf("a long game keeps %d lines and %d standing moves, want %d of each", len(u.events), len(u.standing[1]), logSize)
	}
}

// worded is the log's lines for seat, without the bots' marks.
func worded(u *undoLog, seat int, seats []store.Seat) []string {
	lines, _ := u.wordedFor(seat, seats)
	return lines
}

// TestLogCreditsTheBot: a move a bot played for a seat's person says so
// in every seat's log, and is listed as the bot's; what the game did
// after it for that seat (its roll as the work phase begins) is not the
// bot's (issue 36, point 11); old records, without the mark, read as the
// person's own.
func TestLogCreditsTheBot(t *testing.T) {
	seats := []store.Seat{{Name: "ann"}, {Name: "carol"}}
	var u undoLog
	u.record(0, 1, true, []engine.Event{{Seat: 1, Text: "built a card", Private: "built Manufactory"}, {Seat: -1, Text: "the round ends"},
		{Seat: 1, Text: "rolled 6 1"}})
	u.record(1, 1, false, []engine.Event{{Seat: 1, Text: "took a card"}})
	for _, c := range []struct {
		seat int
		want []string
	}{
		{0, []string{"the bot played for carol: built a card", "the round ends", "carol rolled 6 1", "carol took a card"}},
		{1, []string{"the bot played for you: built Manufactory", "the round ends", "You rolled 6 1", "You took a card"}},
	} {
		lines, byBot := u.wordedFor(c.seat, seats)
		if !slices.Equal(lines, c.want) || !slices.Equal(byBot, []int{0}) {
			t.Errorf("seat %d reads %q with the bot's lines %v; want %q and [0]", c.seat, lines, byBot, c.want)
		}
	}
}

// TestUndoLogWordsWhatWasTakenBack: the undoer's line carries, for their
// language, the words of each event of the move taken back; a move
// whose events have no words leaves it to the English text.
func TestUndoLogWordsWhatWasTakenBack(t *testing.T) {
	take := engine.Say("factories.log.take", engine.CardArg("Card", "Dojo"))
	roll := engine.Say("factories.log.roll", engine.Str("Dice", "6 1"))
	undo := engine.Event{Seat: 0, Kind: engine.Undo, Text: "took back a move", Words: engine.Say("log.undo")}
	var u undoLog
	u.record(0, 0, false, []engine.Event{{Seat: 0, Text: "took Dojo from the marketplace", Words: take}, {Seat: 0, Text: "rolled 6 1", Words: roll}})
	u.record(1, 0, false, []engine.Event{undo})
	got := u.entries()[0]
	want := engine.Say("log.tookback", engine.StepsArg("Did", take, roll))
	if w := got.WordsFor(0); w.ID != want.ID || fmt.Sprint(w) != fmt.Sprint(want) {
		t.Errorf("the undoer's words %v; want %v", w, want)
	}
	if w := got.WordsFor(1); w.ID != "log.undo" {
		t.Errorf("another seat's words %v; want log.undo", w)
	}
	u.record(2, 0, false, []engine.Event{{Seat: 0, Text: "took a card"}})
	u.record(3, 0, false, []engine.Event{undo})
	if got := u.entries()[1]; got.WordsFor(0).ID != "" || got.For(0) != "took back: took a card" {
		t.Errorf("an undo of a move without words: %v, %q", got.WordsFor(0), got.For(0))
	}
}
