package server

import (
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
)

// Two players finish a game over real SSH, each with a terminal on the
// room while a play stream makes their moves; a greedy bot holds the third
// seat. At the end alice presses r (the bot is in at once), bob presses r,
// and both terminals move to the new room, in their own seats, with a new
// seed. A script's `rematch CODE` then names the same room.
func TestRematchOverSSH(t *testing.T) {
	srv := startServer(t)
	aliceKey, bobKey := newKey(t), newKey(t)
	alice := dialKey(t, srv.addr, "alice", aliceKey)
	bob := dialKey(t, srv.addr, "bob", bobKey)
	code := strings.TrimSpace(run(t, alice, "new --players 3 --seed 21 --bots greedy", "").stdout)

	_, as := ptySession(t, alice, "join "+code, 80, 24)
	as.waitFor(t, "WAITING ROOM")
	_, bs := ptySession(t, bob, "join "+code, 100, 30)
	as.waitFor(t, "MARKETPLACE")
	bs.waitFor(t, "MARKETPLACE")
	if r := run(t, bob, "rematch "+code, ""); r.status != 1 || !strings.Contains(r.stderr, "once the game is over") {
		t.Errorf("a rematch mid-game: %+v", r)
	}

	playBoth(t, code, alice, bob)
	if t.Failed() {
		return
	}
	as.waitFor(t, "GAME OVER")
	bs.waitFor(t, "GAME OVER")
	old, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
	if err != nil {
		t.Fatal(err)
	}

	as.in.Write([]byte("r"))
	as.waitFor(t, "rematch: ✓ alice · ✓ greedy bot 3 · waiting for bob")
	bs.waitFor(t, "waiting for bob · r to accept")
	bs.in.Write([]byte("r"))
	waitUntil(t, "the rematch made", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && info.Rematch != nil && info.Rematch.Code != ""
	})
	info, _ := srv.lobby.Info(t.Context(), code, lobby.Player{})
	next := info.Rematch.Code
	for _, s := range []*screen{as, bs} {
		s.waitFor(t, "room "+next+" · round 1")
	}
	waitUntil(t, "both players in their seats of the new room", func() bool {
		n, err := srv.lobby.Info(t.Context(), next, lobby.Player{})
		return err == nil && n.Seats[0].Connected && n.Seats[1].Connected
	})
	n, _ := srv.lobby.Info(t.Context(), next, lobby.Player{})
	if !n.Started || n.Over || n.Seed == old.Seed || n.Game != old.Game || n.Seats[2].Bot != "greedy" {
		t.Errorf("the rematch room: %+v\nafter %+v", n, old)
	}
	for seat, s := range old.Seats {
		if n.Seats[seat].Name != s.Name {
			t.Errorf("seat %d is %q in the rematch, was %q", seat, n.Seats[seat].Name, s.Name)
		}
	}
	// The seats are bound by key: bob's play lands in his, and his script
	// hears the same room named.
	if r := run(t, bob, "rematch "+code, ""); r.status != 0 || strings.TrimSpace(r.stdout) != next {
		t.Errorf("rematch after it was made: %+v", r)
	}
	st := startPlay(t, dialKey(t, srv.addr, "bob", bobKey), "play "+next)
	if l := <-st.lines; l.Seat != 1 || l.Room.Code != next {
		t.Errorf("bob's play in the rematch: %s", l.raw)
	}
}

// A script accepts with `rematch CODE --wait`, which prints the new
// room's code once the other player accepts too.
func TestRematchCommandWaits(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 5 --private", "").stdout)
	playBoth(t, code, alice, bob)
	if r := run(t, carol, "rematch "+code, ""); r.status != 1 || !strings.Contains(r.stderr, "only the players") {
		t.Errorf("a stranger's rematch: %+v", r)
	}
	done := make(chan result, 1)
	go func() { done <- run(t, alice, "rematch "+code+" --wait", "") }()
	waitUntil(t, "alice's acceptance", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && info.Rematch != nil
	})
	r := run(t, bob, "rematch "+strings.Split(code, "-")[0], "")
	next := strings.TrimSpace(r.stdout)
	if r.status != 0 || len(next) != lobby.CodeLength {
		t.Fatalf("bob's acceptance: %+v", r)
	}
	if a := <-done; a.status != 0 || strings.TrimSpace(a.stdout) != next || !strings.Contains(a.stderr, "waiting for bob") {
		t.Errorf("alice's rematch --wait: %+v, want %s", a, next)
	}
}

// playBoth plays alice's and bob's seats of room code over play, each with
// a greedy bot, until the game is over.
func playBoth(t *testing.T, code string, alice, bob *gossh.Client) {
	t.Helper()
	var wg sync.WaitGroup
	for i, c := range []*gossh.Client{alice, bob} {
		s := startPlay(t, c, "play "+code)
		wg.Go(func() { playToEnd(t, c.User(), s, uint64(i+7), func(int, int, []factories.Card) {}) })
	}
	wg.Wait()
}
