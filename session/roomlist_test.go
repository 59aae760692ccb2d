package session_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestListCutToOneRowSaysSo: at 80x24 with the chat open a list may get
// one row; the rooms it hides are counted on its title, as a longer list
// counts them on a line of their own.
func TestListCutToOneRowSaysSo(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	sit := func(code string, who ...lobby.Player) {
		for _, p := range who {
			c, err := l.Join(ctx, code, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.Close)
		}
	}
	for range 3 {
		sit(createRoom(t, l, bob, lobby.CreateOptions{Seats: 2, Public: true}), bob, carol)
		sit(createRoom(t, l, carol, lobby.CreateOptions{Seats: 2, Public: true}), carol)
		sit(createRoom(t, l, alice, lobby.CreateOptions{Seats: 1}), alice)
	}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	d.until("the lists", d.screenContains("IN PLAY: WATCH (3)"))
	if !strings.Contains(d.view(), "t chat") {
		t.Errorf("the 80-column help bar does not offer the chat:\n%s", d.view())
	}
	d.keys("t")
	d.until("the chat", d.screenContains("CHAT"))
	lines := strings.Split(d.view(), "\n")
	for _, list := range []string{"OPEN SEATS (3)", "IN PLAY: WATCH (3)", "YOUR GAMES (3)"} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, list) })
		var section []string // the title and its rows, to the blank line
		for j := i; i >= 0 && j < len(lines) && strings.TrimSpace(lines[j]) != ""; j++ {
			section = append(section, lines[j])
		}
		if !strings.Contains(strings.Join(section, "\n"), "more") {
			t.Errorf("%s is cut without a mark:\n%s", list, d.view())
		}
	}
}
