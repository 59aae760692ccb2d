package lobby

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/internal/tally"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// openRedis opens a store on r, closed when the test ends. r comes from
// redistest.Start, which skips the test without redis-server (and fails it
// when CI is set).
func openRedis(t testing.TB, r *redistest.Server) *redisstore.Store {
	t.Helper()
	s, err := redisstore.Open(context.Background(), r.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rawRedis is a client of r of the test's own, to look at the keys and
// channels the store uses (lobby/store/redis/keys.go) as another program
// would.
func rawRedis(t testing.TB, r *redistest.Server) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// indexChannel is where every instance announces what room lists show,
// and roomChannel where it announces a room's changes, both sharded
// (lobby/store/redis/keys.go).
const indexChannel = "smokestack:{index}:changes"

func roomChannel(code string) string { return "smokestack:{" + code + "}:changes" }

// instance is one smokestack server: its own Redis connection and lobby.
type instance struct {
	store *redisstore.Store
	lobby *Lobby
	stop  context.CancelFunc
	done  chan struct{} // closed when the lobby's Run has returned
}

func newInstance(t *testing.T, r *redistest.Server) *instance {
	t.Helper()
	return startInstance(t, openRedis(t, r))
}

// startInstance runs a lobby on s until the test ends.
func startInstance(t *testing.T, s *redisstore.Store) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l := New(Config{Store: s, Games: []Game{tallyGame()}, PresenceTTL: testPresenceTTL})
	in := &instance{store: s, lobby: l, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(in.done)
		in.lobby.Run(ctx)
	}()
	return in
}

// testPresenceTTL keeps presence tests short while leaving a loaded
// machine room for a late renewal or two.
const testPresenceTTL = 2 * time.Second

// kill drops the instance as a crashed process would: no Close on its
// connections, no goodbye to Redis beyond the socket closing. The store
// closes first, so the lobby cannot withdraw its seat claims on the way
// out as a clean shutdown does.
func (in *instance) kill() {
	in.store.Close()
	in.stop()
}

// session follows one Conn's updates as a terminal would: it keeps the
// newest and can wait for one that satisfies a condition. It never calls
// t.Fatal, so racing goroutines may use it.
type session struct {
	name string
	c    *Conn
	last Update
	has  bool
}

func (s *session) drain() {
	for {
		select {
		case u := <-s.c.Updates():
			s.last, s.has = u, true
		default:
			return
		}
	}
}

// await returns the newest update once cond holds for it.
func (s *session) await(within time.Duration, cond func(Update) bool) (Update, error) {
	deadline := time.After(within)
	s.drain()
	for !s.has || !cond(s.last) {
		select {
		case u := <-s.c.Updates():
			s.last, s.has = u, true
			s.drain()
		case <-deadline:
			return s.last, fmt.Errorf("%s: condition not met within %s (version %d, notice %q)", s.name, within, s.last.Version, s.last.Notice)
		}
	}
	return s.last, nil
}

func (s *session) view() tally.View {
	var v tally.View
	_ = json.Unmarshal(s.last.View, &v)
	return v
}

func atVersion(n int) func(Update) bool { return func(u Update) bool { return u.Version == n } }

// redisGame is a two-seat room with alice seated through instance a and
// bob through instance b, and a spectator on each.
type redisGame struct {
	r          *redistest.Server
	a, b       *instance
	code       string
	invite     string // the room is private: the others join by its invite
	alice, bob Player
	seats      map[int]*session
	watchers   []*session
	moves      int // moves played so far by play
}

func newRedisGame(t *testing.T, seed uint64) *redisGame {
	t.Helper()
	r := redistest.Start(t)
	g := &redisGame{r: r, a: newInstance(t, r), b: newInstance(t, r)}
	g.seat(t, seed)
	return g
}

// seat makes the room on instance a and seats alice through a and bob
// through b, with a watcher on each.
func (g *redisGame) seat(t *testing.T, seed uint64) {
	t.Helper()
	ctx := context.Background()
	g.alice, g.bob = Player{ID: "key:alice", Name: "alice"}, Player{ID: "key:bob", Name: "bob"}
	meta, err := g.a.lobby.Create(ctx, g.alice, CreateOptions{Seats: 2, Seed: seed, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	g.code, g.invite = meta.Code, meta.Invite()
	ca, err := g.a.lobby.Join(ctx, g.code, g.alice)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := g.b.lobby.Join(ctx, g.invite, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	g.seats = map[int]*session{ca.Seat(): {name: "alice@a", c: ca}, cb.Seat(): {name: "bob@b", c: cb}}
	for _, in := range []*instance{g.a, g.b} {
		w, err := in.lobby.Watch(ctx, g.invite, Player{ID: "key:watcher"})
		if err != nil {
			t.Fatal(err)
		}
		g.watchers = append(g.watchers, &session{name: "watcher", c: w})
	}
	// Alice learns through instance b's announcement that the game started.
	for _, s := range g.all() {
		if _, err := s.await(10*time.Second, func(u Update) bool { return u.Room.Started && u.View != nil }); err != nil {
			t.Fatal(err)
		}
	}
}

func (g *redisGame) all() []*session {
	return append([]*session{g.seats[0], g.seats[1]}, g.watchers...)
}

// synced waits until every session shows move n, and returns whether the
// game is over.
func (g *redisGame) synced(t *testing.T, n int) bool {
	t.Helper()
	for _, s := range g.all() {
		if _, err := s.await(10*time.Second, atVersion(n)); err != nil {
			t.Fatal(err)
		}
	}
	return g.watchers[0].view().Over
}

// play makes up to n moves one at a time (all, if n < 0), each after every
// session on both instances has seen the previous one, so the game is the
// same every run.
func (g *redisGame) play(t *testing.T, n int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; n < 0 || i < n; i++ {
		if g.synced(t, g.moves) {
			return
		}
		seat := 0
		if len(g.seats[0].view().Legal) == 0 {
			seat = 1
		}
		s := g.seats[seat]
		raw, _ := json.Marshal(pick(s.view().Legal))
		if err := s.c.Move(ctx, raw); err != nil {
			t.Fatalf("%s move %d %s: %v", s.name, g.moves, raw, err)
		}
		g.moves++
	}
	g.synced(t, g.moves)
}

// sameEverywhere checks that both instances show the same game.
func (g *redisGame) sameEverywhere(t *testing.T) {
	t.Helper()
	wa := g.watchers[0].last
	for _, w := range g.watchers[1:] {
		if wb := w.last; string(wa.View) != string(wb.View) || wa.Version != wb.Version {
			t.Fatalf("instances disagree at versions %d/%d:\na %s\nb %s", wa.Version, wb.Version, wa.View, wb.View)
		}
	}
	_, moves, err := g.a.store.Load(context.Background(), g.code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != wa.Version {
		t.Fatalf("redis holds %d moves, sessions show %d", len(moves), wa.Version)
	}
}
