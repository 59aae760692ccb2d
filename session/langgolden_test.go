package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// TestLangGolden draws the generic screens in every language at the
// least size and a roomy one, compared with testdata/TestLangGolden/
// TAG/SCREEN/SIZE.golden: the lobby of a server with both games, the
// new-room form for each game (Furnace with every option it shows), the
// form's help, the lobby's keys, a waiting room and a replay's frame. Translations run
// longer than English: these show they fit, nothing cut unmarked and no
// word broken.
func TestLangGolden(t *testing.T) {
	all := games.All()
	l := newTestLobby(func(c *lobby.Config) { c.Games = games.Lobby(all) })
	ctx := context.Background()
	done := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, Options: json.RawMessage(`{"difficulty":"insane"}`), HasSeed: true, Seed: 44})
	playSolo(t, l, done, alice, func(*factories.View) bool { return false })
	open := createRoom(t, l, bob, lobby.CreateOptions{Game: "furnace", Seats: 4, Public: true,
		Options: json.RawMessage(`{"rounds":"3","capitalists":"on","arthur":"paired"}`), Bots: []string{"greedy"}})
	if c, err := l.Join(ctx, open, bob); err != nil {
		t.Fatal(err)
	} else {
		c.Close()
	}
	wait, err := l.Create(ctx, alice, lobby.CreateOptions{Game: "furnace", Seats: 3,
		Options: json.RawMessage(`{"chain":"on"}`)})
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{done, open, wait.Code, wait.Secret}
	for _, c := range []struct {
		tag    lang.Tag
		wait   string // the finished solo game's row, which comes last
		replay string // the replay's head
	}{{lang.English, "lost ", "move 0 of"}, {lang.Portuguese, "perdeu ", "jogada 0 de"}, {lang.Polish, "przegrana ", "ruch 0 z"},
		{lang.Russian, "поражение ", "ход 0 из"}} {
		lobbyCfg := session.Config{Lobby: l, Player: alice, Lang: c.tag, Games: games.Screens(all)}
		waitCfg := lobbyCfg
		waitCfg.Start, waitCfg.PublicAddr = session.Start{Mode: "join", Code: wait.Code}, "games.example.org:2222"
		replayCfg := lobbyCfg
		replayCfg.Start = session.Start{Mode: "replay", Code: done}
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			for _, screen := range []struct {
				name string
				cfg  session.Config
				wait string
				keys []string
			}{
				{"lobby", lobbyCfg, c.wait, nil},
				{"form", lobbyCfg, c.wait, []string{"n", "right", "down", "down", "down", "down"}},
				{"formhelp", lobbyCfg, c.wait, []string{"n", "right", "?"}},
				{"solo", lobbyCfg, c.wait, []string{"n", "down", "left", "down", "down"}},
				{"keys", lobbyCfg, c.wait, []string{"?"}},
				{"waiting", waitCfg, "games.example.org", nil},
				{"replay", replayCfg, c.replay, []string{"]", "]", "n"}},
			} {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", c.tag, screen.name, sz[0], sz[1]), func(t *testing.T) {
					screentest.Golden(t, screen.cfg, sz[0], sz[1], codes, screen.wait, screen.keys...)
				})
			}
		}
	}
}
