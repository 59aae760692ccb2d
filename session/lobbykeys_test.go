package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestLobbyArrowsCrossLists: the lobby's lists stand one above another,
// so ↓ past the last room of one goes on to the first room of the next
// list that has any (an empty one between is passed over), ↑ comes back,
// and at the top and the bottom the selection stays where it is.
func TestLobbyArrowsCrossLists(t *testing.T) {
	l := newTestLobby()
	open1 := createRoom(t, l, bob, lobby.CreateOptions{Seats: 2, Public: true})
	open2 := createRoom(t, l, bob, lobby.CreateOptions{Seats: 3, Public: true})
	mine := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1})
	c, err := l.Join(context.Background(), mine, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("YOUR GAMES (1)"))
	d.until("the open rooms", func() bool { return strings.Contains(d.view(), open1) && strings.Contains(d.view(), open2) })
	selected := func() string {
		var on []string
		for _, code := range []string{open1, open2, mine} {
			if strings.Contains(rowOf(d.view(), code), "▸") {
				on = append(on, code)
			}
		}
		if len(on) != 1 {
			t.Fatalf("%d rooms selected at once:\n%s", len(on), d.view())
		}
		return on[0]
	}
	d.keys("up", "up", "up", "up")
	top := selected()
	if top != open1 && top != open2 {
		t.Fatalf("↑ four times stops on %s, not the first list:\n%s", top, d.view())
	}
	second := map[string]string{open1: open2, open2: open1}[top]
	for i, step := range []struct{ key, want string }{
		{"up", top}, // the top stays
		{"down", second},
		{"down", mine}, // on past the empty list of games in play
		{"down", mine}, // the bottom stays
		{"up", second},
		{"up", top},
	} {
		d.keys(step.key)
		if got := selected(); got != step.want {
			t.Fatalf("step %d, %s: %s is selected, want %s:\n%s", i, step.key, got, step.want, d.view())
		}
	}
}
