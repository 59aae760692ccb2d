package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
)

// firstTurnSeed finds a seed whose game of seats begins with seat's
// market turn, by asking the engine, so a test can start there.
func firstTurnSeed(t *testing.T, seats, seat int) uint64 {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		st, err := factories.Rules.New(seats, nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		if s, _ := factories.Rules.Status(st); len(s.Acting) == 1 && s.Acting[0] == seat {
			return seed
		}
	}
	t.Fatalf("no seed starts a game of %d with seat %d", seats, seat)
	return 0
}

// firstUpdate waits for a stream's first update of the started game.
func firstUpdate(t *testing.T, who string, s *stream) line {
	t.Helper()
	for l := range s.lines {
		if l.Error != "" {
			t.Fatalf("%s: %s", who, l.Error)
		}
		if l.Room.Started && len(l.View) > 0 {
			return l
		}
	}
	t.Fatalf("%s: the stream ended before the game started", who)
	return line{}
}

// guestAuth is keyboard-interactive with no key: a guest.
var guestAuth = gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })

// TestHostLeavesOnMarketTurn: the host of a Fantastic Factories game of
// three drops on their market turn. The table counts the grace period
// down on the others' screens; then both vote with b, the game's default
// bot takes the host's seat, and the game is played to its end.
func TestHostLeavesOnMarketTurn(t *testing.T) {
	srv := startServer(t)
	aliceC := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	seed := firstTurnSeed(t, 3, 0)
	code := strings.TrimSpace(run(t, aliceC, fmt.Sprintf("new --players 3 --seed %d --grace 5s --clock off", seed), "").stdout)

	a := startPlay(t, aliceC, "play "+code)
	<-a.lines // seated first: seat 1
	b := startPlay(t, bob, "play "+code)
	<-b.lines
	c := startPlay(t, carol, "play "+code)
	if l := firstUpdate(t, "alice", a); l.Seat != 0 || len(l.Room.Acting) != 1 || l.Room.Acting[0] != 0 || l.Room.HostSeat != 0 {
		t.Fatalf("alice's first update: seat %d, acting %v, host seat %d", l.Seat, l.Room.Acting, l.Room.HostSeat)
	}
	// Bob and carol play on with the greedy bot as soon as they may.
	var wg sync.WaitGroup
	finals := make([]factories.View, 2)
	for i, s := range []*stream{b, c} {
		wg.Go(func() {
			finals[i] = playToEnd(t, []string{"bob", "carol"}[i], s, uint64(i+7), func(int, int, []factories.Card) {})
		})
	}

	// Alice's connection drops on her market turn.
	aliceC.Close()
	_, bobScr := ptySession(t, bob, "join "+code, 80, 24)
	_, carolScr := ptySession(t, carol, "join "+code, 80, 24)
	bobScr.waitFor(t, "alice away: a bot may take the seat in 0:0")
	bobScr.waitFor(t, "you are host") // alice hosted; bob, the first here, stands in
	carolScr.waitFor(t, "bob is host")
	bobScr.waitFor(t, "alice away: b to hand the seat to a bot (0 of 2 votes, automatic in")
	fmt.Fprint(bobScr.in, "b")
	bobScr.waitFor(t, "vote for the greedy bot")
	fmt.Fprint(bobScr.in, "\r")
	bobScr.waitFor(t, "your vote is in: 1 of 2")
	carolScr.waitFor(t, "b to hand the seat to a bot (1 of 2 votes")
	fmt.Fprint(carolScr.in, "b")
	carolScr.waitFor(t, "vote for the greedy bot")
	fmt.Fprint(carolScr.in, "\r")
	carolScr.waitFor(t, "the greedy bot now plays alice's seat")

	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("the game did not end")
	}
	if t.Failed() {
		return
	}
	for i, v := range finals {
		if v.Phase != factories.GameOver || len(v.Scores) != 3 {
			t.Fatalf("player %d's last view: phase %v, scores %v", i+1, v.Phase, v.Scores)
		}
	}
	info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
	if err != nil || !info.Over || info.Seats[0].Bot != "greedy" || info.Seats[0].Name != "alice" {
		t.Fatalf("the room at the end: %+v, %v", info, err)
	}
}

// TestClockRunsOut: a seat whose time for its turn runs out is played by
// its bot for that turn, over real SSH, and the log says the bot played
// it; its player stays seated and plays the next turn.
func TestClockRunsOut(t *testing.T) {
	srv := startServer(t)
	aliceC := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	seed := firstTurnSeed(t, 2, 0)
	r := run(t, aliceC, fmt.Sprintf("new --players 2 --seed %d --clock 5s", seed), "")
	code := strings.TrimSpace(r.stdout)
	if !strings.Contains(r.stderr, "5s a turn on the clock") {
		t.Fatalf("new says %q", r.stderr)
	}
	a := startPlay(t, aliceC, "play "+code)
	<-a.lines
	b := startPlay(t, bob, "play "+code)
	l := firstUpdate(t, "alice", a)
	firstUpdate(t, "bob", b)
	deadline := l.Room.Seats[0].Deadline
	if l.Room.ClockSeconds != 5 || deadline.IsZero() || l.Room.Acting[0] != 0 {
		t.Fatalf("alice's first update: clock %ds, deadline %v, acting %v", l.Room.ClockSeconds, deadline, l.Room.Acting)
	}
	// Alice idles; her terminal shows her clock running down.
	_, scr := ptySession(t, aliceC, "join "+code, 80, 24)
	scr.waitFor(t, "⏱ 0:0")

	// Her turn is played for her at the deadline.
	var moved line
	for moved = range a.lines {
		if moved.Version > 0 {
			break
		}
	}
	if moved.Version != 1 || time.Now().Before(deadline) {
		t.Fatalf("alice's seat moved at version %d, %v before its deadline %v", moved.Version, time.Until(deadline), deadline)
	}
	// The log credits the bot, not alice (issue 25, point 2), and play's
	// JSON lists the line as the bot's (logByBot).
	if s := moved.Room.Seats[0]; s.Bot != "" || s.Name != "alice" || len(moved.Log) == 0 ||
		!strings.HasPrefix(moved.Log[0], "the bot played for you: ") || !strings.Contains(string(moved.raw), `"logByBot":[0`) {
		t.Fatalf("after the bot's move for alice: seat %+v, log %q, line %s", s, moved.Log, moved.raw)
	}
	if slices.Contains(moved.Room.Acting, 0) {
		t.Fatalf("the bot played on past alice's turn: acting %v", moved.Room.Acting)
	}

	// Bob plays his turn; alice plays her next turn herself.
	for l := range b.lines {
		var v factories.View
		if json.Unmarshal(l.View, &v) == nil && len(v.Legal) > 0 {
			b.send(t, v.Legal[0])
			break
		}
	}
	for l := range a.lines {
		var v factories.View
		if json.Unmarshal(l.View, &v) != nil || len(v.Legal) == 0 {
			continue
		}
		if l.Room.Seats[0].OutOfTime || l.Room.Seats[0].Deadline.Before(time.Now()) {
			t.Fatalf("alice's next turn is out of time already: %+v", l.Room.Seats[0])
		}
		a.send(t, v.Legal[0])
		break
	}
	for l := range a.lines {
		if l.Error != "" {
			t.Fatalf("alice's own move on her next turn: %s", l.Error)
		}
		if l.OK {
			return
		}
	}
	t.Fatal("alice's stream ended")
}

// TestGuestReclaim: a guest is shown a seat word when they sit down. Back
// as a new guest from the same address within the grace period, `join
// CODE WORD` puts them in their seat; a wrong word, another address, or
// the same word after the grace period do not.
func TestGuestReclaim(t *testing.T) {
	var ahead atomic.Int64 // how far the lobby's clock runs ahead of the real one
	srv := startServerIn(t, t.TempDir(), func(c *lobby.Config) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	})
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --grace 5s --clock off", "").stdout)
	a := startPlay(t, alice, "play "+code)
	<-a.lines

	gus := dial(t, srv.addr, "gus", guestAuth)
	g := startPlay(t, gus, "play "+code)
	first := firstUpdate(t, "gus", g)
	word := first.SeatWord
	if _, w := lobby.SplitSeatWord(code + " " + word); w == "" || first.Seat != 1 {
		t.Fatalf("gus sat in seat %d with seat word %q", first.Seat, word)
	}
	l := firstUpdate(t, "alice", a)
	if l.SeatWord != "" || strings.Contains(string(l.raw), word) {
		t.Fatalf("alice's stream shows gus's seat word: %s", l.raw)
	}
	gus.Close()
	waitUntil(t, "gus away", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && !info.Seats[1].Connected
	})

	// A wrong word, and the right word from another address: refused alike.
	r := run(t, dial(t, srv.addr, "gus", guestAuth), "play "+code+" nope-10", "")
	if r.status == 0 || !strings.Contains(r.stderr, "no seat in room "+code) {
		t.Fatalf("a wrong word: %+v", r)
	}
	elsewhere, _, err := dialFromAs(srv.addr, 0, "gus", guestAuth) // from 127.0.0.2
	if err != nil {
		t.Fatal(err)
	}
	defer elsewhere.Close()
	r2 := run(t, elsewhere, "play "+code+" "+word, "")
	if r2.status == 0 || r2.stderr != r.stderr {
		t.Fatalf("the right word from another address: %+v", r2)
	}

	// Gus again, from the terminal's lobby: c, the code and his word.
	back := dial(t, srv.addr, "gus", guestAuth)
	sess, scr := ptySession(t, back, "", 80, 24)
	scr.waitFor(t, "OPEN SEATS")
	fmt.Fprint(scr.in, "c")
	scr.waitFor(t, "JOIN A ROOM")
	fmt.Fprint(scr.in, code+" "+word+"\r")
	scr.waitFor(t, "your seat word: "+word)
	waitUntil(t, "gus back in his seat", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && info.Seats[1].Connected && info.Seats[1].Name == first.Room.Seats[1].Name
	})
	sess.Close()
	back.Close()
	waitUntil(t, "gus away again", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && !info.Seats[1].Connected
	})

	// Past the grace period the word opens nothing: the lobby's clock
	// moves on past it.
	ahead.Store(int64(6 * time.Second))
	late, scr := ptySession(t, dial(t, srv.addr, "gus", guestAuth), "join "+code+" "+word, 80, 24)
	err = late.Wait()
	if exit, ok := err.(*gossh.ExitError); !ok || exit.ExitStatus() != 1 || !strings.Contains(scr.text(), "no seat in room "+code) {
		t.Fatalf("the word after the grace period: %v, screen %q", err, scr.text())
	}
}
