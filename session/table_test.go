package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// setClock is a lobby's clock that the test sets: the times the room
// stores (who left when, the votes, the game's start) are then exact, and
// the session's fixed clock counts them down to the same screen each run.
type setClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *setClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *setClock) set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// awayTable is a game of three with a five-minute clock: alice, bob and
// carol sit down at start; bob leaves at left. The lobby's clock is then
// at the session's fixed time less before.
func awayTable(t *testing.T, start, left time.Time) (l *lobby.Lobby, clk *setClock, code string, conns map[string]*lobby.Conn) {
	t.Helper()
	ctx := context.Background()
	clk = &setClock{t: start}
	l = lobby.New(lobby.Config{Store: mem.New(), Games: lobbyGames(), Now: clk.Now})
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 3, HasSeed: true, Seed: 47, Clock: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	conns = map[string]*lobby.Conn{}
	for _, p := range []lobby.Player{alice, bob, carol} {
		c, err := l.Join(ctx, m.Invite(), p)
		if err != nil {
			t.Fatal(err)
		}
		conns[p.Name] = c
		t.Cleanup(c.Close)
	}
	clk.set(left)
	conns["bob"].Close()
	return l, clk, m.Invite(), conns
}

// TestTableGolden draws the table's countdowns at 80x24: the clock in the
// header, an away seat before and after its grace period, the votes, and
// a guest's seat word.
func TestTableGolden(t *testing.T) {
	now := fixedNow()
	t.Run("vote", func(t *testing.T) {
		// Bob left three minutes ago; carol voted; alice's turn began
		// three minutes ago with five on the clock.
		l, clk, code, _ := awayTable(t, now.Add(-3*time.Minute), now.Add(-3*time.Minute))
		clk.set(now.Add(-50 * time.Second))
		if res, err := l.Vote(context.Background(), code, carol, 1); err != nil || res.Votes != 1 {
			t.Fatalf("carol's vote: %+v, %v", res, err)
		}
		goldenAt(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}},
			codesOf(code), 80, 24, "automatic in")
	})
	t.Run("grace", func(t *testing.T) {
		// A spectator, bob gone for half a minute.
		l, _, code, _ := awayTable(t, now.Add(-time.Minute), now.Add(-30*time.Second))
		goldenAt(t, session.Config{Lobby: l, Player: lobby.Player{ID: "SHA256:dan", Name: "dan"}, Start: session.Start{Mode: "watch", Code: code}},
			codesOf(code), 80, 24, "may take the seat")
	})
	// The same countdowns in each language: the header, the banner's
	// votes and times, the status line and the keys.
	for _, c := range []struct {
		tag         lang.Tag
		vote, grace string // what each screen waits for
	}{
		{lang.Portuguese, "automático em", "um bot pode assumir o lugar"},
		{lang.Polish, "bot za 1:00", "bot może przejąć miejsce"},
		{lang.Russian, "автоматически через", "бот сможет занять место"},
	} {
		t.Run(string(c.tag)+"/vote", func(t *testing.T) {
			l, clk, code, _ := awayTable(t, now.Add(-3*time.Minute), now.Add(-3*time.Minute))
			clk.set(now.Add(-50 * time.Second))
			if _, err := l.Vote(context.Background(), code, carol, 1); err != nil {
				t.Fatal(err)
			}
			goldenAt(t, session.Config{Lobby: l, Player: alice, Lang: c.tag, Start: session.Start{Mode: "join", Code: code}},
				codesOf(code), 80, 24, c.vote)
		})
		t.Run(string(c.tag)+"/grace", func(t *testing.T) {
			l, _, code, _ := awayTable(t, now.Add(-time.Minute), now.Add(-30*time.Second))
			goldenAt(t, session.Config{Lobby: l, Player: lobby.Player{ID: "SHA256:dan", Name: "dan"}, Lang: c.tag,
				Start: session.Start{Mode: "watch", Code: code}}, codesOf(code), 80, 24, c.grace)
		})
	}
	t.Run("seatword", func(t *testing.T) {
		l := newTestLobby()
		code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 48})
		gus := lobby.Player{ID: "guest:gus", Name: "gus", Guest: true, From: "203.0.113.7"}
		c, err := l.Join(context.Background(), code, gus)
		if err != nil {
			t.Fatal(err)
		}
		word := (<-c.Updates()).SeatWord
		c.Close()
		// The word is random: no golden, but the screen must show it.
		d := newDriver(t, session.Config{Lobby: l, Player: gus, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code + " " + word}})
		d.until("the waiting room", d.screenContains("seats taken"))
		if out := d.view(); strings.Count(out, word) < 2 || !strings.Contains(out, "join "+code+" "+word) {
			t.Fatalf("gus's screen does not give his seat word %s:\n%s", word, out)
		}
		// With the server's address known, the line to come back is
		// whole, to paste (it read "ssh -t … join").
		d = newDriver(t, session.Config{Lobby: l, Player: gus, Width: 80, Height: 24, PublicAddr: "games.example.org:2222",
			Start: session.Start{Mode: "join", Code: code + " " + word}})
		d.until("the waiting room", d.screenContains("seats taken"))
		if out := d.view(); !strings.Contains(out, "ssh -t -p 2222 games.example.org join "+code+" "+word) {
			t.Fatalf("gus's screen does not give the whole line to come back:\n%s", out)
		}
	})
}

// codesOf are a private room's random code and secret, for the goldens.
func codesOf(invite string) []string { c, s, _ := lobby.ParseInvite(invite); return []string{c, s} }

// TestCountdownTicks: the away countdown moves on by itself, once a
// second, with no update from the room; a table where nothing counts sets
// no timer at all.
func TestCountdownTicks(t *testing.T) {
	now := fixedNow()
	l, _, code, _ := awayTable(t, now.Add(-time.Minute), now.Add(-30*time.Second))
	var mu sync.Mutex
	sessionNow := now
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code},
		Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return sessionNow }})
	d.until("the countdown", d.screenContains("a bot may take the seat in 1:30"))
	mu.Lock()
	sessionNow = sessionNow.Add(time.Second)
	mu.Unlock()
	d.until("the countdown a second on", d.screenContains("a bot may take the seat in 1:29"))
	if g, _ := d.game(); !g.Ticking() {
		t.Fatal("a screen counting down does not tick")
	}

	solo := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24,
		Start: session.Start{Mode: "join", Code: createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 49})}})
	solo.inGame()
	solo.drain()
	if g, _ := solo.game(); g.Ticking() {
		t.Fatal("a solo game with no clock ticks")
	}
}

// TestVoteFromScreen: past bob's grace period alice presses b and votes
// for the bot; carol's vote completes the table's, and alice's screen shows
// the bot in bob's seat.
func TestVoteFromScreen(t *testing.T) {
	now := fixedNow()
	l, clk, code, _ := awayTable(t, now.Add(-3*time.Minute), now.Add(-3*time.Minute))
	clk.set(now)
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.until("the vote line", d.screenContains("b to hand the seat to a bot (0 of 2 votes"))
	d.keys("b")
	d.until("the picker", d.screenContains("vote for the greedy bot"))
	d.keys("enter")
	d.until("alice's vote", d.screenContains("your vote is in: 1 of 2"))
	d.until("the vote line", d.screenContains("you voted for a bot (1 of 2 votes"))
	if _, err := l.Vote(context.Background(), code, carol, 1); err != nil {
		t.Fatal(err)
	}
	d.until("the bot in bob's seat", d.screenContains("♥ bob (bot)"))
}
