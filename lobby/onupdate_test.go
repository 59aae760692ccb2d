package lobby

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// OnUpdate is told of an update already waiting at once, then of every
// update pushed, each one there to take; after it is turned off, of none.
func TestOnUpdate(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice, bob := Player{ID: "SHA256:alice", Name: "alice"}, Player{ID: "SHA256:bob", Name: "bob"}
	m, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := l.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	told := make(chan struct{}, 100)
	a.OnUpdate(func() { told <- struct{}{} })
	waitTold := func(what string) Update {
		t.Helper()
		select {
		case <-told:
		case <-time.After(5 * time.Second):
			t.Fatalf("not told of %s", what)
		}
		select {
		case u := <-a.Updates():
			return u
		default:
			t.Fatalf("told of %s, but no update waits", what)
		}
		return Update{}
	}
	waitTold("the first update, waiting before OnUpdate")
	b, err := l.Join(ctx, m.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// bob plays if he may; else alice does, and is told of her own move.
	mover, v := a, view(t, waitTold("bob sitting down"))
	if len(v.Legal) == 0 {
		mover, v = b, view(t, latest(t, b))
	}
	raw, _ := json.Marshal(v.Legal[0])
	if err := mover.Move(ctx, raw); err != nil {
		t.Fatal(err)
	}
	waitTold("a move")
	a.OnUpdate(nil)
	for len(told) > 0 { // told before: the room tells under its lock, which OnUpdate took
		<-told
	}
	for len(a.Updates()) > 0 {
		<-a.Updates()
	}
	// Bob leaving pushes alice an update before Close returns, under the
	// room's lock, which is when she would be told of it.
	b.Close()
	if len(a.Updates()) == 0 {
		t.Fatal("bob leaving pushed alice no update")
	}
	if len(told) > 0 {
		t.Fatal("told of an update after OnUpdate(nil)")
	}
}

// OnRoomChanges is told of what RoomChanges would send, until its context
// ends.
func TestOnRoomChanges(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	sub, stop := context.WithCancel(ctx)
	told := make(chan struct{}, 100)
	l.OnRoomChanges(sub, func() { told <- struct{}{} })
	alice := Player{ID: "SHA256:alice", Name: "alice"}
	m, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if !woken(told, time.Second) {
		t.Fatal("a new room was not told")
	}
	c, err := l.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !woken(told, time.Second) {
		t.Fatal("a seat taken was not told")
	}
	stop()
	eventually(t, "the context's end takes the subscriber off", func() bool {
		l.feed.mu.Lock()
		defer l.feed.mu.Unlock()
		return len(l.feed.calls) == 0
	})
	for len(told) > 0 {
		<-told
	}
	// A new room tells its subscribers before Create returns.
	if _, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true}); err != nil {
		t.Fatal(err)
	}
	if len(told) > 0 {
		t.Error("told of a change after its context ended")
	}
}

// A lobby chat feed's OnLines is told of lines waiting already, then of
// each new delivery, each there to take; after it is turned off, of none.
func TestChatFeedOnLines(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice := Player{ID: "SHA256:alice", Name: "alice"}
	f := l.FollowLobbyChat(ctx) // its first delivery: the store's (empty) chat
	defer f.Close()
	told := make(chan struct{}, 100)
	f.OnLines(func() { told <- struct{}{} })
	take := func(what string) []store.ChatLine {
		t.Helper()
		if !woken(told, time.Second) {
			t.Fatalf("not told of %s", what)
		}
		select {
		case lines := <-f.Lines():
			return lines
		default:
			t.Fatalf("told of %s, but no lines wait", what)
		}
		return nil
	}
	take("the first delivery, waiting before OnLines")
	if err := l.SayInLobby(ctx, alice, "anyone?"); err != nil {
		t.Fatal(err)
	}
	if lines := take("alice's line"); len(lines) != 1 || lines[0].Text != "anyone?" {
		t.Errorf("lines %+v", lines)
	}
	f.OnLines(nil)
	// A line said here is read back and delivered before SayInLobby
	// returns, which is when the feed would be told of it.
	if err := l.SayInLobby(ctx, alice, "hello?"); err != nil {
		t.Fatal(err)
	}
	if len(f.Lines()) == 0 {
		t.Fatal("the line said was not delivered")
	}
	if len(told) > 0 {
		t.Error("told of lines after OnLines(nil)")
	}
}
