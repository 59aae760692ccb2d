package server

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/furnace"
	furnacebot "github.com/smokestack/smokestack/engine/furnace/bot"
	furnaceui "github.com/smokestack/smokestack/session/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// Furnace played end to end over real SSH: whole games through the play
// protocol, one room across two instances over Redis, and the game screen
// in a terminal.

// checkFurnaceView fails on a Furnace view that is not the stream's own
// seat's, or that shows anything of the deck but its size.
func checkFurnaceView(t *testing.T, who string, l line) {
	t.Helper()
	var v furnace.View
	if err := json.Unmarshal(l.View, &v); err != nil {
		t.Fatalf("%s: view: %v", who, err)
	}
	if v.Seat != l.Seat {
		t.Fatalf("%s: update for seat %d carries the view of seat %d", who, l.Seat, v.Seat)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(l.View, &keys)
	for _, k := range []string{"deck", "rng", "seed"} {
		if _, ok := keys[k]; ok {
			t.Fatalf("%s: the view shows the %s: %.200s", who, k, l.View)
		}
	}
	if l.Seat < 0 && len(v.Legal) > 0 {
		t.Fatalf("%s: a spectator is offered moves", who)
	}
}

// playFurnace plays a seat with the greedy bot through the protocol until
// the server ends the stream at game over, and returns the last view and
// every log line it was shown.
func playFurnace(t *testing.T, who string, s *stream, seed uint64) (furnace.View, []string) {
	b, err := furnacebot.New("greedy", seed)
	if err != nil {
		t.Error(err)
		return furnace.View{}, nil
	}
	var last furnace.View
	var log []string
	pending, refused := false, 0
	for l := range s.lines {
		switch {
		case l.Error != "":
			// Production and compensations are simultaneous: another
			// seat's move may come first. Choose again from the newest view.
			if refused++; refused > 10 {
				t.Errorf("%s: too many refused moves, last: %s", who, l.Error)
				s.in.Close()
				return last, log
			}
			pending = false
		case l.OK:
			pending = false
		case len(l.View) == 0:
			continue // waiting for the others to sit down
		default:
			checkFurnaceView(t, who, l)
			last = furnace.View{}
			json.Unmarshal(l.View, &last)
			for _, e := range l.Log {
				if !slices.Contains(log, e) {
					log = append(log, e)
				}
			}
		}
		if !pending && len(last.Legal) > 0 {
			s.send(t, b.Choose(last))
			pending = true
		}
	}
	if err := s.sess.Wait(); err != nil {
		t.Errorf("%s: play ended with %v", who, err)
	}
	return last, log
}

// Whole games of Furnace through the play protocol over real SSH, a
// spectator watching: a 2-player game with the Agent and a 4-player game
// with capitalists, each to its final scores, which every stream and the
// room agree on.
func TestFurnaceGamesOverSSH(t *testing.T) {
	for _, c := range []struct {
		name    string
		players int
		flags   string
		check   func(t *testing.T, final furnace.View, log []string)
	}{
		{"2 players and the Agent", 2, "", func(t *testing.T, final furnace.View, log []string) {
			if final.Agent == nil {
				t.Error("a 2-player game without the Agent")
			}
			if !slices.ContainsFunc(log, func(e string) bool { return strings.HasPrefix(e, "the Agent rolled") }) {
				t.Errorf("the log never shows the Agent placing a disc: %q", log)
			}
		}},
		{"4 players with capitalists", 4, "--capitalists on", func(t *testing.T, final furnace.View, _ []string) {
			seen := map[furnace.Capitalist]bool{}
			for seat, p := range final.Players {
				if p.Capitalist == "" || seen[p.Capitalist] {
					t.Errorf("seat %d has capitalist %q; each seat has its own", seat, p.Capitalist)
				}
				seen[p.Capitalist] = true
			}
			if final.Agent != nil {
				t.Error("the Agent plays a 4-player game")
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := startServer(t)
			names := []string{"alice", "bob", "carol", "dave"}[:c.players]
			clients := make([]*gossh.Client, len(names))
			for i, n := range names {
				clients[i] = dialKey(t, srv.addr, n, newKey(t))
			}
			r := run(t, clients[0], fmt.Sprintf("new --game furnace --players %d --seed 21 %s", c.players, c.flags), "")
			if r.status != 0 {
				t.Fatalf("new: status %d, stderr %q", r.status, r.stderr)
			}
			code := strings.TrimSpace(r.stdout)
			if r := run(t, clients[1], "rooms", ""); !regexp.MustCompile(code + `\s+furnace\s+0/` + fmt.Sprint(c.players)).MatchString(r.stdout) {
				t.Errorf("rooms does not list the Furnace room %s with its seats free:\n%s", code, r.stdout)
			}
			watcher := startPlay(t, dialKey(t, srv.addr, "eve", newKey(t)), "play "+code+" --watch")
			streams := make([]*stream, len(names))
			for i := range names {
				streams[i] = startPlay(t, clients[i], "play "+code)
			}
			finals := make([]furnace.View, len(names))
			logs := make([][]string, len(names))
			var wg sync.WaitGroup
			for i, s := range streams {
				wg.Go(func() { finals[i], logs[i] = playFurnace(t, names[i], s, uint64(i+1)) })
			}
			var watched []line
			for l := range watcher.lines {
				if len(l.View) > 0 {
					checkFurnaceView(t, "spectator", l)
				}
				watched = append(watched, l)
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			last := watched[len(watched)-1]
			var spectated furnace.View
			if err := json.Unmarshal(last.View, &spectated); err != nil || !last.Room.Over {
				t.Fatalf("the spectator's last update: over %v, view %v", last.Room.Over, err)
			}
			if spectated.Phase != furnace.GameOver || len(spectated.Scores) != c.players {
				t.Fatalf("final view: phase %s, %d scores", spectated.Phase, len(spectated.Scores))
			}
			seats := map[int]bool{}
			for i, v := range finals {
				seats[v.Seat] = true
				if !slices.Equal(v.Scores, spectated.Scores) {
					t.Errorf("%s saw the scores %+v, the spectator %+v", names[i], v.Scores, spectated.Scores)
				}
			}
			if len(seats) != c.players {
				t.Errorf("the players held the seats %v", seats)
			}
			res := last.Room.Result
			if res == nil {
				t.Fatal("the finished room has no result")
			}
			for _, s := range spectated.Scores {
				if res.Scores[s.Seat] != s.Money || res.Ranks[s.Seat] != s.Rank || slices.Contains(res.Winners, s.Seat) != s.Winner {
					t.Errorf("seat %d: the room's result %+v disagrees with the scores %+v", s.Seat, res, s)
				}
			}
			if r := run(t, clients[0], "history", ""); !regexp.MustCompile(code + `\s+furnace\s+.*\sover`).MatchString(r.stdout) {
				t.Errorf("history does not list the finished Furnace game %s:\n%s", code, r.stdout)
			}
			c.check(t, spectated, logs[0])
			t.Logf("room %s over after %d moves; scores %+v", code, last.Version, spectated.Scores)
		})
	}
}

// The game screen of Furnace in a real terminal over SSH: alice opens her
// room at 80x24 and plays discs with the keys, one on the card the menu
// opens on and one on the next card (→), and the card reference and the
// rules open and close. A second session on her key, speaking the play
// protocol, reads her view to check each placement landed where the keys
// said.
func TestFurnaceScreenOverSSH(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --game furnace --players 2 --seed 8 --bots greedy", "").stdout)
	mine := follow("alice's view", startPlay(t, alice, "play "+code))
	mine.checkView = func(t *testing.T, l line) { checkFurnaceView(t, mine.name, l) }
	_, scr := ptySession(t, alice, "join "+code, 80, 24)
	scr.waitFor(t, "MARKET")

	place := func(keys ...string) {
		t.Helper()
		l := mine.last
		if !strings.Contains(string(l.View), `"legal"`) {
			l = mine.await(t, "alice's turn", func(l line) bool { return strings.Contains(string(l.View), `"legal"`) })
		}
		var v furnace.View
		json.Unmarshal(l.View, &v)
		board, err := furnaceui.UI.Decode(l.View)
		if err != nil {
			t.Fatal(err)
		}
		groups := board.Menu(kit.Seats{Viewer: v.Seat})
		group := strings.Count(strings.Join(keys, ""), "\x1b[C") % len(groups)
		var want furnace.Move
		json.Unmarshal(groups[group].Moves[0].Move, &want)
		for _, k := range keys { // one key a read, as a person types
			drawn := scr.drawn()
			if _, err := scr.in.Write([]byte(k)); err != nil {
				t.Fatal(err)
			}
			// It is her turn: nothing but her key redraws the screen.
			waitUntil(t, fmt.Sprintf("the screen to take %q", k), func() bool { return scr.drawn() > drawn })
		}
		mine.await(t, fmt.Sprintf("her %d on %s", want.Disc, want.Card), func(after line) bool {
			var av furnace.View
			if after.OK || after.Version <= l.Version || json.Unmarshal(after.View, &av) != nil {
				return false
			}
			// The disc is on the card, or it ended the auction, whose
			// cards then left the market.
			for _, lot := range av.Market {
				if lot.Card == want.Card {
					return slices.Contains(lot.Discs, furnace.Disc{Seat: v.Seat, Value: want.Disc})
				}
			}
			return av.Phase != furnace.AuctionPhase
		})
		// The screen says it was played (the log may have moved on: the
		// bot and the Agent place right after).
		scr.waitFor(t, fmt.Sprintf("played: Place your %d on %s", want.Disc, want.Card))
	}
	place("\r")
	place("\x1b[C", "\r")

	scr.in.Write([]byte("i"))
	scr.waitFor(t, "CARD REFERENCE")
	scr.waitFor(t, "Data: ")
	// Escape is read alone, or with the next key it would be alt+key: the
	// next is typed once the board is back.
	drawn := scr.drawn()
	scr.in.Write([]byte("\x1b"))
	scr.waitForSince(t, drawn, "MARKET")
	scr.in.Write([]byte("r"))
	scr.waitFor(t, "The goal")
	drawn = scr.drawn()
	scr.in.Write([]byte("\x1b"))
	scr.waitForSince(t, drawn, "MARKET")
	scr.in.Write([]byte("q"))
	scr.waitFor(t, "OPEN SEATS")
}

// One Furnace room across two instances over one real redis-server: alice
// on instance A and bob on B, a spectator on each, a seeded game with
// capitalists played to its final scores one move at a time. After every
// move each stream on both instances shows exactly what the engine, given
// the same seed and moves with no server in between, shows that seat.
func TestFurnaceTwoInstances(t *testing.T) {
	c := newCluster(t, "new --game furnace --players 2 --seed 33 --capitalists on")
	ref, err := furnace.New(furnace.Config{Players: 2, Capitalists: true, Undo: true}, 33) // as rooms play it
	if err != nil {
		t.Fatal(err)
	}
	seats, watchA, _, all := c.sitDown(t, func(name string, s *stream) *follower {
		f := follow(name, s)
		f.checkView = func(t *testing.T, l line) { checkFurnaceView(t, name, l) }
		return f
	})

	bots := make([]furnacebot.Bot, 2)
	for i := range bots {
		if bots[i], err = furnacebot.New("greedy", uint64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	moved := map[string]int{}
	for moves := 0; ; moves++ {
		if moves > 1000 {
			t.Fatal("no game over after 1000 moves")
		}
		for _, f := range all {
			l := f.atVersion(t, moves)
			var got furnace.View
			json.Unmarshal(l.View, &got)
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(furnace.ViewOf(ref, l.Seat))
			if string(gotJSON) != string(wantJSON) {
				t.Fatalf("%s at version %d sees\n%s\nthe engine shows that seat\n%s", f.name, moves, gotJSON, wantJSON)
			}
		}
		if watchA.last.Room.Over {
			break
		}
		seat := slices.IndexFunc(seats, func(f *follower) bool { return strings.Contains(string(f.last.View), `"legal"`) })
		if seat < 0 {
			t.Fatalf("version %d: nobody may move, yet the game is not over", moves)
		}
		mover := seats[seat]
		var v furnace.View
		json.Unmarshal(mover.last.View, &v)
		m := bots[seat].Choose(v)
		mover.s.send(t, m)
		mover.await(t, "ok", func(l line) bool { return l.OK || l.Room.Over })
		if ref, _, err = furnace.Apply(ref, mover.last.Seat, m); err != nil {
			t.Fatalf("the server took %+v, the engine refuses it: %v", m, err)
		}
		moved[mover.name]++
	}
	if moved["alice@A"] == 0 || moved["bob@B"] == 0 {
		t.Errorf("moves by instance: %v; want moves on both", moved)
	}
	for _, f := range all {
		if err := f.s.sess.Wait(); err != nil {
			t.Errorf("%s: play ended with %v, want exit status 0 after the game", f.name, err)
		}
	}
	if ref.Phase != furnace.GameOver {
		t.Fatalf("the reference game is in phase %s", ref.Phase)
	}
	t.Logf("room %s over across two instances; moves %v; scores %+v", c.code, moved, furnace.Scores(ref))
}
