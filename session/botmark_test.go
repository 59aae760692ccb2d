package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// TestBotSeatMarked: a player's seat handed to a bot is marked as a bot
// wherever the seat is named: its place on the board and the log lines
// the bot's moves make, which say the bot played them for the seat's
// person (issue 25, point 2), while what the game does for the seat, its
// roll, is the seat's own.
func TestBotSeatMarked(t *testing.T) {
	now := fixedNow()
	clk := &setClock{t: now}
	l := lobby.New(lobby.Config{Store: mem.New(), Games: lobbyGames(), Now: clk.Now})
	ctx := context.Background()
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 2, HasSeed: true, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	code := m.Invite()
	b, err := l.Join(ctx, code, bob)
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 120, Height: 40, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	b.Close()
	d.until("bob away", d.screenContains("bob away"))
	clk.set(now.Add(lobby.DefaultGrace + time.Second))
	// Alice, the one player at the table, votes bob's seat to a bot.
	if err := l.AddBot(ctx, code, alice, b.Seat(), "greedy"); err != nil {
		t.Fatal(err)
	}
	if g, _ := d.game(); g.Moves() > 0 {
		d.keys("enter") // alice takes a blueprint: the bot's turn comes
	}
	d.until("the bot's move in the log", d.screenContains("the bot played for bob: "))
	if v := d.view(); !strings.Contains(v, " bob (bot)") {
		t.Fatalf("bob's seat is not marked as a bot's on the board:\n%s", v)
	}
	// The work phase's roll is the game's doing, not the bot's (issue
	// 36, point 11).
	d.until("bob's roll in the log", d.screenContains("bob (bot) rolled"))
	if v := d.view(); strings.Contains(v, "the bot played for bob: rolled") {
		t.Fatalf("the bot is credited with bob's roll:\n%s", v)
	}
}
