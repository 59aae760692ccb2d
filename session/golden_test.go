package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// The golden screens: each is drawn in the mono theme at the four sizes
// and compared with testdata/TestGolden/<screen>/<size>.golden. Run
// `go test ./session -run TestGolden -update` to rewrite them after a
// deliberate change, and read the diff.

var goldenSizes = [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}}

// playSolo plays player's seat with the seated random bot until stop
// says so or the game ends; a room's bots play the other seats.
func playSolo(t *testing.T, l *lobby.Lobby, code string, p lobby.Player, stop func(*factories.View) bool) {
	t.Helper()
	ctx := context.Background()
	c, err := l.Join(ctx, code, p)
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
			return
		}
		if len(v.Legal) == 0 {
			continue // the others' turn
		}
		data, _ := json.Marshal(b.Choose(v))
		if err := c.Move(ctx, data); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the game did not end")
}

// tableAt makes a room of seats with alice in the first seat and random
// bots in the others, and plays alice's moves with a seeded bot until she
// may act in phase of round 3. She works only after every bot is done:
// research draws from the shared deck, so the order of the seats' work
// must be the same on every run for the position to be.
func tableAt(t *testing.T, l *lobby.Lobby, seats int, phase factories.Phase) string {
	t.Helper()
	bots := make([]string, seats-1)
	for i := range bots {
		bots[i] = "random"
	}
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: seats, HasSeed: true, Seed: uint64(70 + seats), Bots: bots})
	ctx := context.Background()
	c, err := l.Join(ctx, code, alice)
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
		if len(v.Legal) == 0 {
			continue // the others' turn
		}
		if v.Phase == factories.WorkPhase && slices.ContainsFunc(v.Players, func(p factories.PlayerView) bool {
			return p.Seat != v.Seat && !p.Done
		}) {
			continue // the bots work first
		}
		if v.Round >= 3 && v.Phase == phase {
			return code
		}
		data, _ := json.Marshal(b.Choose(v))
		if err := c.Move(ctx, data); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("never reached the position")
	return ""
}

// goldenRun draws the session at every golden size once the output shows
// wait and keys were pressed, and compares the final frame.
func goldenRun(t *testing.T, cfg session.Config, codes []string, wait string, keys ...string) {
	sizes := goldenSizes
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			goldenAt(t, cfg, codes, sz[0], sz[1], wait, keys...)
		})
	}
}

func goldenAt(t *testing.T, cfg session.Config, codes []string, w, h int, wait string, keys ...string) {
	cfg.Games = screens
	screentest.Golden(t, cfg, w, h, codes, wait, keys...)
}

func TestGolden(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	solo := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, Options: json.RawMessage(`{"difficulty":"medium"}`), HasSeed: true, Seed: 42})
	work := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, Options: json.RawMessage(`{"difficulty":"easy"}`), HasSeed: true, Seed: 43})
	playSolo(t, l, work, alice, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
	done := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, Options: json.RawMessage(`{"difficulty":"hard"}`), HasSeed: true, Seed: 44})
	playSolo(t, l, done, alice, func(*factories.View) bool { return false })
	open := createRoom(t, l, bob, lobby.CreateOptions{Seats: 3, Public: true, HasSeed: true, Seed: 45, Bots: []string{"greedy"}})
	if c, err := l.Join(ctx, open, bob); err != nil {
		t.Fatal(err)
	} else {
		c.Close()
	}
	waiting, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 2, HasSeed: true, Seed: 46})
	if err != nil {
		t.Fatal(err)
	}
	wait := waiting.Code
	// A public game in play, to watch, where a player's seat went to a
	// bot: its row names the bot as such.
	inPlay := createRoom(t, l, bob, lobby.CreateOptions{Seats: 3, Public: true, HasSeed: true, Seed: 47, Bots: []string{"random"},
		Grace: 5 * time.Second})
	left, err := l.Join(ctx, inPlay, bob)
	if err != nil {
		t.Fatal(err)
	}
	left.Close()
	stays, err := l.Join(ctx, inPlay, carol)
	if err != nil {
		t.Fatal(err)
	}
	// Once bob is away past the grace (the test clock moves a second at
	// each reading), carol, the one player at the table, votes his seat
	// to a bot.
	for try := 0; ; try++ {
		err := l.AddBot(ctx, inPlay, carol, left.Seat(), "greedy")
		info, ierr := l.Info(ctx, inPlay, carol)
		if ierr == nil && info.Seats[left.Seat()].Bot != "" {
			break // her vote, or the handover the clock brought by itself
		}
		if try > 10 {
			t.Fatal(err, ierr)
		}
	}
	stays.Close()
	// The private room's secret is random too: the waiting room shows it.
	codes := []string{solo, work, done, open, wait, waiting.Secret, inPlay}

	t.Run("lobby", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice}, codes, "lost ")
	})
	t.Run("market", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: solo}}, codes, "MARKETPLACE", "right")
	})
	t.Run("work", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: work}}, codes, "work phase", "right", "down")
	})
	t.Run("scores", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: done}}, codes, "GAME OVER")
	})
	t.Run("waiting", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: wait},
			PublicAddr: "games.example.org:2222"}, codes, "1 of 2 seats taken")
	})
	t.Run("replay", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "replay", Code: done}}, codes, "move 0 of", "]", "]", "n")
	})
	t.Run("rules", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: solo}}, codes, "MARKETPLACE", "r", "right")
	})
	// The lobby's own key page, drawn once for every session with its
	// theme, keys and width.
	t.Run("lobbykeys", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice}, codes, "lost ", "?")
	})
	// Every key, none cut: at 80 columns the last column goes below.
	t.Run("keys", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: solo}}, codes, "MARKETPLACE", "?")
	})
	t.Run("cards", func(t *testing.T) {
		goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: solo}}, codes, "MARKETPLACE", "i", "down")
	})
	// The chat, once the lobby is drawn: its room is alice's too, which
	// would change the lobby's lists.
	talk := chatRoom(t, l)
	chatCodes := append(slices.Clone(codes), talk)
	t.Run("chat", func(t *testing.T) {
		screentest.Said(t, "gg!") // typed below
		for _, sz := range [][2]int{{80, 24}, {160, 50}} {
			t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
				goldenAt(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: talk}},
					chatCodes, sz[0], sz[1], "MARKETPLACE", "t", "g", "g", "!")
			})
		}
	})
	t.Run("lobbychat", func(t *testing.T) {
		for _, who := range []lobby.Player{alice, bob} {
			if err := l.SayInLobby(ctx, who, "anyone for a 3-player furnace? \x1b]52;c;cm0gLXJm\x07"); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.SayInLobby(ctx, carol, "/me waves"); err != nil {
			t.Fatal(err)
		}
		screentest.Said(t, "anyone for a 3-player furnace?", "waves")
		screentest.GoldenThen(t, session.Config{Lobby: l, Player: alice, Games: screens}, 80, 24, chatCodes, "OPEN SEATS", []string{"t"}, "carol waves")
	})
	// Full tables in both phases: every seat shown, nothing cut without
	// a mark, at the minimum size first.
	for _, seats := range []int{3, 5} {
		for _, phase := range []factories.Phase{factories.MarketPhase, factories.WorkPhase} {
			code := tableAt(t, l, seats, phase)
			t.Run(fmt.Sprintf("%s%d", phase, seats), func(t *testing.T) {
				goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}},
					[]string{code}, "MOVES")
			})
		}
	}
	t.Run("toosmall", func(t *testing.T) {
		for _, sz := range [][2]int{{79, 24}, {80, 23}, {40, 12}} {
			t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
				goldenAt(t, session.Config{Lobby: l, Player: alice}, codes, sz[0], sz[1], "make the window")
			})
		}
	})
}

// chatRoom is a two-seat room where alice, bob and carol (watching) have
// talked, bob trying an escape sequence and a bidi override on alice's
// screen, and carol /me.
func chatRoom(t *testing.T, l *lobby.Lobby) string {
	t.Helper()
	ctx := context.Background()
	m, err := l.Create(ctx, bob, lobby.CreateOptions{Seats: 2, HasSeed: true, Seed: 47})
	if err != nil {
		t.Fatal(err)
	}
	a, err := l.Join(ctx, m.Invite(), alice)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()                  // alice's screen takes her seat
	b, _ := l.Join(ctx, m.Code, bob) // bob and carol stay at the table
	w, err := l.Watch(ctx, m.Invite(), carol)
	if err != nil {
		t.Fatal(err)
	}
	for _, said := range []struct {
		c    *lobby.Conn
		text string
	}{
		{b, "good luck! \x1b]0;pwned\x07\x1b[2J\x1b[H"},
		{a, "thanks, you too"},
		{w, "/me grabs some popcorn"},
		{b, "I will take the \u202Egnirts\u202C Robot, unless the marketplace refreshes before my turn comes round again"},
		{a, "we will see about that"},
	} {
		if err := said.c.Say(ctx, said.text); err != nil {
			t.Fatal(err)
		}
		screentest.Said(t, said.text)
	}
	return m.Code
}
