package session_test

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestNoHintKeyWhereNoHints: a seat's keys page lists h (the hint) in a
// game that has hints, and not in one that has none (Furnace), where h
// could only answer "this game has no hints".
func TestNoHintKeyWhereNoHints(t *testing.T) {
	every := games.All()
	l := newTestLobby(func(c *lobby.Config) { c.Games = games.Lobby(every) })
	for _, c := range []struct {
		game  string
		hints bool
	}{{"factories", true}, {"furnace", false}} {
		code := createRoom(t, l, alice, lobby.CreateOptions{Game: c.game, Seats: 2, Bots: []string{"random"}})
		d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 120, Height: 40, Games: games.Screens(every),
			Start: session.Start{Mode: "join", Code: code}})
		d.inGame()
		d.keys("?")
		d.until(c.game+": the keys page", d.screenContains("search moves"))
		if got := strings.Contains(d.view(), "hint: best moves"); got != c.hints {
			t.Errorf("%s: the keys page lists the hint: %v, want %v:\n%s", c.game, got, c.hints, d.view())
		}
	}
}
