package furnace_test

import (
	"fmt"
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// TestGoldenLanguages draws Furnace's screens in every language at 80x24
// and 120x40, through the real session speaking that language: the
// 4-player auction, production, a rules page and the game over. They are
// testdata/TestGoldenLanguages/<tag>/<screen>/<size>.golden; read them
// after a change to a catalogue (`-update` rewrites them).
func TestGoldenLanguages(t *testing.T) {
	l := newTestLobby()
	four := table{Seats: 4, Seed: 30, Options: `{"capitalists":"on"}`}.play(t, l, auctionAfter(6))
	production := table{Seats: 4, Seed: 14, Options: `{"capitalists":"on"}`}.play(t, l, midProduction)
	scores := table{Seats: 4, Seed: 15, Options: `{"capitalists":"on"}`}.play(t, l, gameOver)
	codes := []string{four, production, scores}
	join := func(code string) session.Start { return session.Start{Mode: "join", Code: code} }
	for _, tag := range lang.Tags {
		p := lang.For(tag)
		market, yours, over := p.T("furnace.market.title"), p.T("furnace.yours.title"), p.T("furnace.scores.title")
		run := func(t *testing.T, start session.Start, wait string, keys ...string) {
			for _, sz := range [][2]int{{80, 24}, {120, 40}} {
				t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
					cfg := session.Config{Lobby: l, Player: alice, Start: start, Games: screens, Lang: tag}
					screentest.Golden(t, cfg, sz[0], sz[1], codes, wait, keys...)
				})
			}
		}
		t.Run(string(tag), func(t *testing.T) {
			t.Run("auction", func(t *testing.T) { run(t, join(four), market) })
			t.Run("production", func(t *testing.T) { run(t, join(production), yours) })
			// The rules' page on production and upgrades.
			t.Run("rules", func(t *testing.T) { run(t, join(four), market, "r", "right", "right", "right") })
			t.Run("scores", func(t *testing.T) { run(t, join(scores), over) })
		})
	}
}
