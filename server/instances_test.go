package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// redisInstance is one smokestack instance of a cluster: a real server on
// 127.0.0.1:0 whose lobby keeps its rooms in a shared Redis and follows
// the changes other instances make there.
type redisInstance struct {
	addr  string
	store *redisstore.Store
}

func startRedisInstance(t *testing.T, url string, change ...func(*Server)) *redisInstance {
	t.Helper()
	st, err := redisstore.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	lb := lobby.New(lobby.Config{Store: st, Games: testGames})
	ctx, stopLobby := context.WithCancel(context.Background())
	go lb.Run(ctx)
	srv, err := New(Config{HostKey: newKey(t), Lobby: lb, Screens: testScreens})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range change {
		f(srv)
	}
	addr := serveLoopback(t, srv, func() {
		stopLobby()
		st.Close()
	})
	return &redisInstance{addr: addr, store: st}
}

// follower reads one play stream and keeps its newest update. It checks
// every line on the way: no other seat's hand, the view of its own seat,
// and no error (moves are made one at a time, so none is refused).
type follower struct {
	name string
	s    *stream
	last line // the newest update
	// hands[version] is the seat's own hand at each version it saw.
	hands map[int][]factories.Card
	// checkView checks each view the stream shows, in its game's terms.
	checkView func(t *testing.T, l line)
}

// follow follows a stream of Fantastic Factories.
func follow(name string, s *stream) *follower {
	f := &follower{name: name, s: s, hands: map[int][]factories.Card{}}
	f.checkView = f.checkHands
	return f
}

// await reads lines until done holds for one, and returns it.
func (f *follower) await(t *testing.T, what string, done func(line) bool) line {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case l, ok := <-f.s.lines:
			if !ok {
				t.Fatalf("%s: stream ended while waiting for %s (last version %d)", f.name, what, f.last.Version)
			}
			f.check(t, l)
			if done(l) {
				return l
			}
		case <-deadline:
			t.Fatalf("%s: no %s within 15s (last version %d)", f.name, what, f.last.Version)
		}
	}
}

// atVersion returns the update showing move n, which may already be in.
func (f *follower) atVersion(t *testing.T, n int) line {
	t.Helper()
	is := func(l line) bool { return !l.OK && l.Version == n && len(l.View) > 0 }
	if is(f.last) {
		return f.last
	}
	return f.await(t, fmt.Sprintf("update at version %d", n), is)
}

func (f *follower) check(t *testing.T, l line) {
	t.Helper()
	checkPrivacy(t, f.name, l)
	if l.Error != "" {
		t.Fatalf("%s: %s", f.name, l.Error)
	}
	if l.OK {
		return
	}
	if l.Version < f.last.Version {
		t.Fatalf("%s: version went back from %d to %d", f.name, f.last.Version, l.Version)
	}
	f.last = l
	if len(l.View) > 0 {
		f.checkView(t, l)
	}
}

// checkHands checks a view of Fantastic Factories: the stream's own seat,
// its own hand.
func (f *follower) checkHands(t *testing.T, l line) {
	t.Helper()
	v := f.view()
	if v.Seat != l.Seat {
		t.Fatalf("%s: update for seat %d carries the view of seat %d", f.name, l.Seat, v.Seat)
	}
	for _, p := range v.Players {
		if p.Seat == v.Seat && p.HandSize != len(v.Hand) {
			t.Fatalf("%s: hand size %d but %d cards in hand", f.name, p.HandSize, len(v.Hand))
		}
	}
	if l.Seat >= 0 {
		f.hands[l.Version] = v.Hand
	}
}

func (f *follower) view() factories.View {
	var v factories.View
	if err := json.Unmarshal(f.last.View, &v); err != nil {
		panic(fmt.Sprintf("%s: view: %v", f.name, err)) // the line parsed as JSON already
	}
	return v
}

// cluster is two instances over one real redis-server and a room made on
// instance A: alice plays on A, bob on B, and carol, with one key,
// watches on both.
type cluster struct {
	a, b                       *redisInstance
	alice, bob, carolA, carolB *gossh.Client
	code                       string
}

// newCluster starts the instances and creates the room with create, a
// `new` command run by alice on A.
func newCluster(t *testing.T, create string) *cluster {
	t.Helper()
	r := redistest.Start(t)
	c := &cluster{a: startRedisInstance(t, r.URL), b: startRedisInstance(t, r.URL)}
	c.alice = dialKey(t, c.a.addr, "alice", newKey(t))
	c.bob = dialKey(t, c.b.addr, "bob", newKey(t))
	carolKey := newKey(t)
	c.carolA, c.carolB = dialKey(t, c.a.addr, "carol", carolKey), dialKey(t, c.b.addr, "carol", carolKey)
	res := run(t, c.alice, create, "")
	if res.status != 0 {
		t.Fatalf("%s on A: status %d, stderr %q", create, res.status, res.stderr)
	}
	c.code = strings.TrimSpace(res.stdout)
	return c
}

// sitDown opens every stream, each followed with follow: carol watching
// on A and B, then alice in seat 0 on A and, once she has it, bob on B.
func (c *cluster) sitDown(t *testing.T, follow func(name string, s *stream) *follower) (seats []*follower, watchA, watchB *follower, all []*follower) {
	t.Helper()
	watchA = follow("spectator@A", startPlay(t, c.carolA, "play "+c.code+" --watch"))
	watchB = follow("spectator@B", startPlay(t, c.carolB, "play "+c.code+" --watch"))
	seats = []*follower{follow("alice@A", startPlay(t, c.alice, "play "+c.code))}
	seats[0].await(t, "alice's seat", func(l line) bool { return !l.OK && l.Seat == 0 })
	seats = append(seats, follow("bob@B", startPlay(t, c.bob, "play "+c.code)))
	return seats, watchA, watchB, []*follower{seats[0], seats[1], watchA, watchB}
}

// TestTwoInstancesOverSSH is the many-instance setup end to end: two
// servers over one real redis-server, alice on instance A and bob on B in
// one room, a spectator on each, a seeded game played to its final scores
// through the play protocol over real SSH. Moves go one at a time, each
// after every stream on both instances showed the one before, so the game
// is the same every run. Both instances end on the same final view, and no
// stream ever carries another seat's hand.
func TestTwoInstancesOverSSH(t *testing.T) {
	c := newCluster(t, "new --players 2 --seed 42")
	code := c.code
	var listed []lobby.RoomInfo
	out := run(t, c.bob, "rooms --json", "").stdout
	if err := json.Unmarshal([]byte(out), &listed); err != nil || !slices.ContainsFunc(listed, func(i lobby.RoomInfo) bool { return i.Code == code }) {
		t.Fatalf("instance B does not list room %s made on A (%v): %s", code, err, out)
	}
	seats, watchA, watchB, all := c.sitDown(t, follow)

	bots := make([]bot.Bot, 2)
	for i := range bots {
		var err error
		if bots[i], err = bot.New("greedy", uint64(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	moves := 0
	for ; ; moves++ {
		if moves > 1000 {
			t.Fatal("no game over after 1000 moves")
		}
		for _, f := range all {
			f.atVersion(t, moves)
		}
		if watchA.last.Room.Over {
			break
		}
		seat := slices.IndexFunc(seats, func(f *follower) bool { return len(f.view().Legal) > 0 })
		if seat < 0 {
			t.Fatalf("version %d: nobody may move, yet the game is not over", moves)
		}
		mover := seats[seat]
		mover.s.send(t, bots[seat].Choose(mover.view()))
		// The update showing the move comes first, then ok; after the
		// last move the session ends at the update instead.
		mover.await(t, "ok", func(l line) bool { return l.OK || l.Room.Over })
	}

	for _, f := range all {
		if err := f.s.sess.Wait(); err != nil {
			t.Errorf("%s: play ended with %v, want exit status 0 after the game", f.name, err)
		}
	}
	if string(watchA.last.View) != string(watchB.last.View) {
		t.Fatalf("the instances show different final views:\nA %s\nB %s", watchA.last.View, watchB.last.View)
	}
	final := watchA.view()
	if final.Phase != factories.GameOver || len(final.Scores) != 2 {
		t.Fatalf("final view: phase %v, scores %v; want the game over with 2 scores", final.Phase, final.Scores)
	}
	for _, f := range seats {
		if v := f.view(); !slices.Equal(v.Scores, final.Scores) || v.Seat != f.last.Seat {
			t.Errorf("%s ends on scores %v as seat %d; the spectators see %v", f.name, v.Scores, v.Seat, final.Scores)
		}
	}
	if seats[0].last.Seat == seats[1].last.Seat {
		t.Fatalf("alice and bob both hold seat %d", seats[0].last.Seat)
	}
	compared := 0
	for v, h0 := range seats[0].hands {
		if h1, ok := seats[1].hands[v]; ok && len(h0) > 0 {
			compared++
			if slices.Equal(h0, h1) {
				t.Errorf("version %d: both seats were shown the hand %v", v, h0)
			}
		}
	}
	if compared < moves/2 {
		t.Errorf("compared the seats' hands at only %d of %d versions", compared, moves)
	}
	_, log, err := c.b.store.Load(t.Context(), code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != moves {
		t.Errorf("redis holds %d moves, the streams showed %d", len(log), moves)
	}
	t.Logf("room %s over after %d moves across two instances; scores %v", code, moves, final.Scores)
}
