package factories_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
	factoriesui "github.com/smokestack/smokestack/session/factories"
	"github.com/smokestack/smokestack/session/kit"
	"github.com/smokestack/smokestack/session/screentest"
)

// The golden screens of Fantastic Factories in every language: each is
// drawn through the real session in the mono theme at 80x24 and 120x40
// and compared with testdata/TestGoldenLanguages/<lang>/<screen>/<size>.golden.
// Run `go test ./session/factories -run TestGoldenLanguages -update` to
// rewrite them after a deliberate change, and read the diff.

var goldenSizes = [][2]int{{80, 24}, {120, 40}}

var alice = lobby.Player{ID: "SHA256:alice", Name: "alice"}

func newTestLobby() *lobby.Lobby {
	clock := screentest.NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	return lobby.New(lobby.Config{Store: mem.New(), Games: []lobby.Game{{Rules: factories.Rules, Bots: bot.JSONBots()}},
		Now: clock.Now})
}

// soloRoom makes alice's solo room at difficulty, seeded, and plays her
// seat with a seeded random bot until stop says so or the game ends.
func soloRoom(t *testing.T, l *lobby.Lobby, difficulty string, seed uint64, stop func(*factories.View) bool) string {
	t.Helper()
	ctx := context.Background()
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: seed,
		Options: json.RawMessage(fmt.Sprintf(`{"difficulty":%q}`, difficulty))})
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Join(ctx, m.Code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, _ := bot.New("random", 5)
	for range 5000 {
		var v factories.View
		if err := json.Unmarshal((<-c.Updates()).View, &v); err != nil {
			t.Fatal(err)
		}
		if v.Phase == factories.GameOver || stop(&v) {
			return m.Code
		}
		if len(v.Legal) == 0 {
			continue
		}
		data, _ := json.Marshal(b.Choose(v))
		if err := c.Move(ctx, data); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game did not end")
	return ""
}

func TestGoldenLanguages(t *testing.T) {
	l := newTestLobby()
	market := soloRoom(t, l, "medium", 42, func(*factories.View) bool { return true })
	work := soloRoom(t, l, "easy", 43, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
	over := soloRoom(t, l, "hard", 44, func(*factories.View) bool { return false })
	codes := []string{market, work, over}
	for _, tag := range lang.Tags {
		p := lang.For(tag)
		marketTitle, working, gameOver := p.T("factories.market.title"), p.T("factories.header.work", "Names", ""), p.T("factories.over.title")
		t.Run(string(tag), func(t *testing.T) {
			run := func(name, code, wait string, keys ...string) {
				t.Run(name, func(t *testing.T) {
					for _, sz := range goldenSizes {
						t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
							cfg := session.Config{Lobby: l, Player: alice, Lang: tag, Games: map[string]kit.Game{"factories": factoriesui.UI},
								Start: session.Start{Mode: "join", Code: code}}
							screentest.Golden(t, cfg, sz[0], sz[1], codes, wait, keys...)
						})
					}
				})
			}
			run("market", market, marketTitle, "right")
			run("work", work, working, "right", "down")
			run("rules", market, marketTitle, "r", "right", "right")
			run("cards", market, marketTitle, "i", "down")
			run("scores", over, gameOver)
		})
	}
}
