package session_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestWaitingRoom: the waiting room's header names the game and what was
// chosen for it, its help bar offers no card info (there are no cards
// yet), and esc on a message takes the message down before it leaves.
func TestWaitingRoom(t *testing.T) {
	all := games.All()
	l := newTestLobby(func(c *lobby.Config) { c.Games = games.Lobby(all) })
	code := createRoom(t, l, alice, lobby.CreateOptions{Game: "furnace", Seats: 3, Public: true, Clock: 2 * time.Minute,
		Options: json.RawMessage(`{"capitalists":"on"}`)})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Games: games.Screens(all), Width: 80, Height: 24,
		Start: session.Start{Mode: "join", Code: code}})
	d.until("the waiting room", d.screenContains("WAITING ROOM"))
	head := strings.SplitN(d.view(), "\n", 2)[0]
	if !strings.Contains(head, "Furnace · 3 seats · capitalists · ⏱ 2m a turn") {
		t.Errorf("the header does not name the game and its options: %q", head)
	}
	if strings.Contains(d.view(), "card info") {
		t.Errorf("the waiting room offers card info:\n%s", d.view())
	}
	d.keys("i")
	d.until("the answer to i", d.screenContains("the cards show once the game starts"))
	d.keys("esc")
	if _, ok := d.game(); !ok || strings.Contains(d.view(), "the cards show") {
		t.Fatalf("esc on the message: in the room %v:\n%s", ok, d.view())
	}
	d.keys("esc")
	d.until("how to leave", d.screenContains("nothing to close: q leaves the table"))
	d.keys("q")
	d.until("the lobby", d.screenContains("OPEN SEATS"))
}
