package lobby

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// chatShows waits until the connection's newest update carries a chat
// whose last line says text.
func chatShows(t *testing.T, c *Conn, text string) Update {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		u := latest(t, c)
		if n := len(u.Chat); n > 0 && u.Chat[n-1].Text == text {
			return u
		}
		select {
		case u := <-c.Updates():
			seen.Store(c, u)
		case <-deadline:
			t.Fatalf("the chat never showed %q; it has %+v", text, u.Chat)
		}
	}
}

// Players talk in the players' channel and spectators in theirs; every
// connection's update carries both, cleaned, with the speaker's seat and
// name; /me is an action; empty and overlong messages are refused; and a
// room opened again from the store (a restart, another instance) shows
// what was said.
func TestRoomChat(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l := newLobby(t, st)
	alice, bob, carol := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}, Player{ID: "key:carol", Name: "carol"}
	m, err := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := l.Join(ctx, m.Code, alice)
	b, _ := l.Join(ctx, m.Code, bob)
	w, _ := l.Watch(ctx, m.Code, carol)

	if err := a.Say(ctx, "hi \x1b]0;pwned\x07\x1b[2Jbob"); err != nil {
		t.Fatal(err)
	}
	chatShows(t, b, "hi bob")
	if err := w.Say(ctx, "/me waves from the rail"); err != nil {
		t.Fatal(err)
	}
	if err := b.Say(ctx, "hello\u202E alice"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Conn{a, b, w} {
		got := chatShows(t, c, "hello alice").Chat
		want := []store.ChatLine{
			{Name: "alice", Seat: 0, Channel: store.ChatPlayers, Text: "hi bob"},
			{Name: "carol", Seat: -1, Channel: store.ChatSpectators, Text: "waves from the rail", Me: true},
			{Name: "bob", Seat: 1, Channel: store.ChatPlayers, Text: "hello alice"},
		}
		if len(got) != len(want) {
			t.Fatalf("chat %+v, want %+v", got, want)
		}
		for i, g := range got {
			w := want[i]
			if g.Name != w.Name || g.Seat != w.Seat || g.Channel != w.Channel || g.Text != w.Text || g.Me != w.Me || g.ID == "" || g.At.IsZero() {
				t.Errorf("line %d: %+v, want %+v", i, g, w)
			}
		}
	}

	// In order: the 300 x's must be said last, as the reopened room's
	// chat is read up to them (a map's random order made this fail now
	// and then).
	for _, c := range []struct{ text, want string }{
		{"\x1b[2J\x07\u200B  ", "nothing to send"},
		{strings.Repeat("é", 301), "at most 300 characters; that one has 301"},
		{"/me " + strings.Repeat("x", 5), ""},
		{strings.Repeat("x", 300), ""},
	} {
		text, want := c.text, c.want
		err := a.Say(ctx, text)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("saying %.20q: %v, want %q", text, err, want)
		}
	}

	// Closed and opened again from the store: the chat is there.
	for _, c := range []*Conn{a, b, w} {
		c.Close()
	}
	st.Close()
	st, err = bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	again, err := newLobby(t, st).Join(ctx, m.Code, bob)
	if err != nil {
		t.Fatal(err)
	}
	u := chatShows(t, again, strings.Repeat("x", 300))
	if len(u.Chat) != 5 || u.Chat[0].Text != "hi bob" {
		t.Errorf("after reopening, the chat is %+v", u.Chat)
	}
}

// Each person's messages are paced, in rooms and the lobby together; the
// refusal says so and counts; others are not held back.
func TestChatRate(t *testing.T) {
	ctx := context.Background()
	var seen refusals
	l := New(Config{Store: mem.New(), Games: []Game{tallyGame()}, Limits: Limits{ChatPerMinute: 6}, Observer: &seen})
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	m, _ := l.Create(ctx, alice, CreateOptions{Seats: 2, Public: true})
	a, _ := l.Join(ctx, m.Code, alice)
	for i := range chat.Burst {
		if err := a.Say(ctx, "burst"); err != nil {
			t.Fatalf("message %d of the burst: %v", i+1, err)
		}
	}
	err := l.SayInLobby(ctx, alice, "one more, in the lobby")
	var lim *LimitError
	if !errors.As(err, &lim) || lim.Reason != "chat_rate" || err.Error() != "slow down: at most 6 messages a minute; that one was not sent" {
		t.Fatalf("past the burst: %v", err)
	}
	if seen.count("chat_rate") != 1 {
		t.Errorf("%d chat refusals counted, want 1", seen.count("chat_rate"))
	}
	if err := l.SayInLobby(ctx, bob, "bob is not held back"); err != nil {
		t.Errorf("bob: %v", err)
	}
}

// The lobby's chat reaches the lobby screens of another instance sharing
// Redis, in the order it was said, and a screen opened later sees what was
// said before.
func TestLobbyChatAcrossInstances(t *testing.T) {
	ctx := context.Background()
	r := redistest.Start(t)
	a, b := newInstance(t, r), newInstance(t, r)
	alice, bob := Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	fa, fb := a.lobby.FollowLobbyChat(ctx), b.lobby.FollowLobbyChat(ctx)
	defer fa.Close()
	defer fb.Close()
	waitLines := func(f *chat.Feed, texts ...string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		var last []store.ChatLine
		for {
			select {
			case last = <-f.Lines():
				var got []string
				for _, l := range last {
					got = append(got, l.Name+": "+l.Text)
				}
				if strings.Join(got, "|") == strings.Join(texts, "|") {
					return
				}
			case <-deadline:
				t.Fatalf("the lobby chat shows %+v, want %q", last, texts)
			}
		}
	}
	if err := a.lobby.SayInLobby(ctx, alice, "anyone for furnace?"); err != nil {
		t.Fatal(err)
	}
	waitLines(fb, "alice: anyone for furnace?")
	if err := b.lobby.SayInLobby(ctx, bob, "me! \x1b[31mred\x1b[0m"); err != nil {
		t.Fatal(err)
	}
	waitLines(fa, "alice: anyone for furnace?", "bob: me! red")
	late := b.lobby.FollowLobbyChat(ctx)
	defer late.Close()
	waitLines(late, "alice: anyone for furnace?", "bob: me! red")
}

// A room's chat said through one instance shows on the other's sessions.
func TestRoomChatAcrossInstances(t *testing.T) {
	g := newRedisGame(t, 5)
	ctx := context.Background()
	if err := g.seats[0].c.Say(ctx, "from a"); err != nil {
		t.Fatal(err)
	}
	for _, s := range g.all() {
		if _, err := s.await(5*time.Second, func(u Update) bool { n := len(u.Chat); return n > 0 && u.Chat[n-1].Text == "from a" }); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.watchers[1].c.Say(ctx, "from the rail on b"); err != nil {
		t.Fatal(err)
	}
	for _, s := range g.all() {
		u, err := s.await(5*time.Second, func(u Update) bool { return len(u.Chat) == 2 })
		if err != nil {
			t.Fatal(err)
		}
		if u.Chat[1].Channel != store.ChatSpectators || u.Chat[0].Name != "alice" {
			t.Errorf("%s sees %+v", s.name, u.Chat)
		}
	}
}

// A screen opening the lobby's chat gets its lines, and the screens
// already following it are not told again: a crowd arriving would
// otherwise redraw every lobby screen once for every newcomer.
func TestLobbyChatFollowTellsOnlyTheNewcomer(t *testing.T) {
	ctx := context.Background()
	l := newLobby(t, mem.New())
	alice := Player{ID: "key:alice", Name: "alice"}
	if err := l.SayInLobby(ctx, alice, "hello"); err != nil {
		t.Fatal(err)
	}
	first := l.FollowLobbyChat(ctx)
	defer first.Close()
	var told atomic.Int32
	first.OnLines(func() { told.Add(1) })
	if lines := <-first.Lines(); len(lines) != 1 || lines[0].Text != "hello" {
		t.Fatalf("the first screen got %+v, want hello", lines)
	}
	told.Store(0)
	for range 3 {
		late := l.FollowLobbyChat(ctx)
		defer late.Close()
		if lines := <-late.Lines(); len(lines) != 1 || lines[0].Text != "hello" {
			t.Fatalf("a newcomer got %+v, want hello", lines)
		}
	}
	if n := told.Load(); n != 0 {
		t.Errorf("the first screen was told %d times of newcomers", n)
	}
	select {
	case lines := <-first.Lines():
		t.Errorf("the first screen was sent %+v again", lines)
	default:
	}
	if err := l.SayInLobby(ctx, alice, "anyone?"); err != nil {
		t.Fatal(err)
	}
	if lines := <-first.Lines(); len(lines) != 2 || told.Load() != 1 {
		t.Errorf("after a line, the first screen got %+v, told %d times", lines, told.Load())
	}
}
