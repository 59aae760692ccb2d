package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestComingBackLandsInYourSeat: a player who connects to the lobby while
// their move waits in a game is taken to that table, told why; one whose
// move does not wait finds the lobby's cursor on the game in YOUR GAMES,
// enter takes them back to their seat, and the game is not offered to
// them under IN PLAY: WATCH (issue 25, point 3), which says it has no
// other.
func TestComingBackLandsInYourSeat(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true})
	var acting []int
	for _, p := range []lobby.Player{alice, bob} {
		c, err := l.Join(ctx, code, p)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	info, err := l.Info(ctx, code, alice)
	if err != nil {
		t.Fatal(err)
	}
	acting = info.Acting
	if len(acting) != 1 {
		t.Fatalf("the game starts with seats %v acting, want one", acting)
	}
	waited, other := alice, bob
	if info.SeatOf(bob.ID) == acting[0] {
		waited, other = bob, alice
	}

	d := newDriver(t, session.Config{Lobby: l, Player: waited, Width: 80, Height: 24, Start: session.Start{Mode: "lobby", Back: true}})
	d.inGame()
	d.until("why", d.screenContains("welcome back: your move in "+code+" is waiting"))

	o := newDriver(t, session.Config{Lobby: l, Player: other, Width: 80, Height: 24, Start: session.Start{Mode: "lobby", Back: true}})
	o.until("the lobby with the game chosen", o.screenContains("you sit in "+code+": enter takes you back to your seat"))
	// Their own game is left out of IN PLAY, which says so: "no public
	// game is being played" was false beside it.
	if v := o.view(); !strings.Contains(v, "no other public game is being played: yours are under YOUR GAMES") {
		t.Fatalf("%s is offered their own game to watch, or told no game is played:\n%s", other.Name, v)
	}
	o.keys("enter")
	o.inGame()
	o.until("their own seat", o.screenContains("YOU "+[]string{"♠", "♥"}[info.SeatOf(other.ID)]+" "+other.Name))
}

// TestChatCountBesideTheWelcome: "welcome back", said until the move
// waiting is played, leaves room for what others say meanwhile: the
// count of new chat lines showed only once the move was played.
func TestChatCountBesideTheWelcome(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true})
	conns := map[string]*lobby.Conn{}
	for _, p := range []lobby.Player{alice, bob} {
		c, err := l.Join(ctx, code, p)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[p.ID] = c
	}
	info, err := l.Info(ctx, code, alice)
	if err != nil {
		t.Fatal(err)
	}
	waited, other := alice, bob
	if info.SeatOf(bob.ID) == info.Acting[0] {
		waited, other = bob, alice
	}
	d := newDriver(t, session.Config{Lobby: l, Player: waited, Width: 80, Height: 24, Start: session.Start{Mode: "lobby", Back: true}})
	d.inGame()
	d.until("the welcome", d.screenContains("welcome back: your move in "+code+" is waiting"))
	if err := conns[other.ID].Say(ctx, "take your time"); err != nil {
		t.Fatal(err)
	}
	d.until("the count beside the welcome", func() bool {
		v := d.view()
		return strings.Contains(v, "1 new in the chat (t)") && strings.Contains(v, "welcome back")
	})
}
