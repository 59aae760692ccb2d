package furnace_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/engine/furnace/bot"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

var bob = lobby.Player{ID: "SHA256:bob", Name: "bob"}

// playPeople plays the room's seats, one person each, with greedy bots
// through their own connections, one move at a time, to the end.
func playPeople(t *testing.T, l *lobby.Lobby, code string, players ...lobby.Player) {
	t.Helper()
	bots := make([]bot.Bot, len(players))
	for i := range bots {
		bots[i], _ = bot.New("greedy", uint64(i+5))
	}
	screentest.PlayPeople(t, l, code, players, func(seat int, raw json.RawMessage) (json.RawMessage, bool) {
		var v furnace.View
		if json.Unmarshal(raw, &v) != nil || len(v.Legal) == 0 {
			return nil, false
		}
		data, _ := json.Marshal(bots[seat].Choose(v))
		return data, true
	}, func(raw json.RawMessage) bool {
		var v furnace.View
		return json.Unmarshal(raw, &v) == nil && v.Phase == furnace.GameOver
	})
}

// TestGoldenRatings: the end of a game between two people shows each
// one's rating and its change under the scores at every size; at 80x24
// the final cards give way to it (they filled the screen, and the
// ratings were cut off without a mark).
func TestGoldenRatings(t *testing.T) {
	// A chosen seed would make a practice room, which is not rated: the
	// lobby draws this one, so the golden is the same on every run.
	l := newTestLobby(func(c *lobby.Config) { c.Seeds = func() uint64 { return 21 } })
	m, err := l.Create(context.Background(), alice, lobby.CreateOptions{Game: "furnace", Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	playPeople(t, l, m.Code, alice, bob)
	goldenRun(t, l, session.Start{Mode: "join", Code: m.Code}, []string{m.Code}, "ratings: ")
}
