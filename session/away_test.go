package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// emptyTable is awayTable with everyone gone: alice and carol left a
// minute after bob, nine minutes before the session's fixed time, with
// carol's five-minute turn long run out.
func emptyTable(t *testing.T) (*lobby.Lobby, string) {
	t.Helper()
	now := fixedNow()
	l, clk, code, conns := awayTable(t, now.Add(-10*time.Minute), now.Add(-10*time.Minute))
	clk.set(now.Add(-9 * time.Minute))
	conns["alice"].Close()
	conns["carol"].Close()
	clk.set(now)
	return l, code
}

// watchingEmpty is dan watching emptyTable at 80x24, once his screen
// shows who is away.
func watchingEmpty(t *testing.T) *driver {
	t.Helper()
	l, code := emptyTable(t)
	dan := lobby.Player{ID: "SHA256:dan", Name: "dan"}
	d := newDriver(t, session.Config{Lobby: l, Player: dan, Width: 80, Height: 24, Start: session.Start{Mode: "watch", Code: code}})
	d.inGame()
	d.until("the away seats", d.screenContains("⏸ alice away 9m"))
	return d
}

// TestSpectatorOfAnEmptyRoom: who watches a table everyone left reads
// who is away and for how long, no countdown to a handover nobody is
// there to wait for, and no vote; b says why there is none.
func TestSpectatorOfAnEmptyRoom(t *testing.T) {
	d := watchingEmpty(t)
	for _, gone := range []string{"b for a bot", "0/0", "votes", "0:00"} {
		if strings.Contains(d.view(), gone) {
			t.Errorf("the spectator's screen shows %q:\n%s", gone, d.view())
		}
	}
	d.keys("b")
	g, _ := d.game()
	if s, _ := g.Status(); !strings.Contains(s, "spectators have no vote") {
		t.Errorf("b for a spectator of away seats answers %q", s)
	}
}

// TestBackAloneAfterTheClock: a player back at a table everyone left,
// her turn's time long past, finds the turn hers and no ⏱ 0:00.
func TestBackAloneAfterTheClock(t *testing.T) {
	l, code := emptyTable(t) // carol's turn: the seed's first
	d := newDriver(t, session.Config{Lobby: l, Player: carol, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	d.until("her turn", d.screenContains("your turn"))
	if out := d.view(); strings.Contains(out, "⏱") {
		t.Errorf("carol back alone reads a clock:\n%s", out)
	}
}

// TestVoteNoteGoesWithTheVote: "your vote is in" is about an away seat;
// it goes once the seat is no longer away (bob came back), and the note
// of a seat handed to the bot goes once its player takes it back.
func TestVoteNoteGoesWithTheVote(t *testing.T) {
	now := fixedNow()
	l, clk, code, _ := awayTable(t, now.Add(-3*time.Minute), now.Add(-3*time.Minute))
	clk.set(now)
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.until("the vote line", d.screenContains("b to hand the seat to a bot (0 of 2 votes"))
	d.keys("b", "enter")
	d.until("alice's vote", d.screenContains("your vote is in: 1 of 2"))
	back, err := l.Join(context.Background(), code, bob)
	if err != nil {
		t.Fatal(err)
	}
	d.until("bob back", func() bool { return !strings.Contains(d.view(), "⏸") })
	if s, _ := d.game(); strings.Contains(d.view(), "your vote is in") {
		st, _ := s.Status()
		t.Fatalf("bob is back and the status still says %q:\n%s", st, d.view())
	}

	back.Close()

	// Again, and this time carol votes too: the seat goes to the bot.
	l, clk, code, _ = awayTable(t, now.Add(-3*time.Minute), now.Add(-3*time.Minute))
	clk.set(now)
	d = newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.until("the vote line", d.screenContains("b to hand the seat to a bot (0 of 2 votes"))
	d.keys("b", "enter")
	d.until("alice's vote", d.screenContains("your vote is in: 1 of 2"))
	if _, err := l.Vote(context.Background(), code, carol, 1); err != nil {
		t.Fatal(err)
	}
	d.until("the bot in bob's seat", d.screenContains("♥ bob (bot)"))
	if strings.Contains(d.view(), "your vote is in") {
		t.Fatalf("the seat went to the bot and the status still counts votes:\n%s", d.view())
	}
}

// TestSpectatorKeysThatPlay: enter, u and / from a spectator, who has no
// moves, say so, and h says hints are the players'; they did nothing,
// leaving the line that answered b before them.
func TestSpectatorKeysThatPlay(t *testing.T) {
	d := watchingEmpty(t)
	g, _ := d.game()
	for _, k := range []string{"enter", "u", "/", "h"} {
		d.keys("b") // an answer to something else first
		d.keys(k)
		want := "spectators cannot play moves"
		if k == "h" {
			want = "hints are for the players' own moves"
		}
		if s, bad := g.Status(); !bad || s != want {
			t.Errorf("%s from a spectator: status %q (bad %v), want %q", k, s, bad, want)
		}
	}
}
