package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/internal/tally"
)

// openRedis opens a store on r, closed when the test ends. r comes from
// redistest.Start, which skips the test without redis-server (and fails it
// when CI is set).
func openRedis(t testing.TB, r *redistest.Server) *RedisStore {
	t.Helper()
	s, err := OpenRedis(context.Background(), r.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestRedisRetriedWritesAreIdempotent: go-redis resends a script whose
// reply was lost; the resend must count as done, never as a conflict that
// would make the room judge — and maybe play — its own move twice.
func TestRedisRetriedWritesAreIdempotent(t *testing.T) {
	ctx := context.Background()
	s := openRedis(t, redistest.Start(t))
	m := mustCreate(t, s)
	if err := s.Create(ctx, m); err != nil {
		t.Fatalf("resent create: %v", err)
	}
	r := rec(0, `{"kind":"take","slot":0}`, t0)
	for range 2 {
		if err := s.Append(ctx, m.Code, 0, r, engine.Status{}); err != nil {
			t.Fatalf("resent append: %v", err)
		}
	}
	if err := s.Append(ctx, m.Code, 0, rec(1, `{"kind":"take","slot":0}`, t0), engine.Status{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("another writer's move 0: %v, want ErrConflict", err)
	}
	next := m
	next.Version, next.Public = 2, false
	for range 2 {
		if err := s.SaveMeta(ctx, next); err != nil {
			t.Fatalf("resent save: %v", err)
		}
	}
	if _, moves, _ := s.Load(ctx, m.Code, 0); len(moves) != 1 {
		t.Fatalf("log holds %d moves, want 1", len(moves))
	}
}

// TestRedisChanges: a store hears other stores' changes but not its own,
// and after Redis restarts it names every room and every chat again,
// because whatever was announced while it was away is lost.
func TestRedisChanges(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := redistest.Start(t)
	if r.External {
		t.Skip("REDIS_URL is set: other rooms would be announced too")
	}
	a, b := openRedis(t, r), openRedis(t, r)
	x, y := mustCreate(t, a), mustCreate(t, a)
	ch := a.Changes(ctx)
	all := []string{x.Code, y.Code, chatChange(x.Code), chatChange(y.Code), chatChange("")}
	slices.Sort(all)
	if got := receive(t, ch, len(all)); !slices.Equal(got, all) {
		t.Fatalf("on subscribe: %v, want every room and chat %v", got, all)
	}
	if err := a.Append(ctx, x.Code, 0, rec(0, `{"kind":"done"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, y.Code, 0, rec(0, `{"kind":"done"}`, t0), engine.Status{}); err != nil {
		t.Fatal(err)
	}
	// Announcements arrive in order, so had a's own come through it would
	// be first.
	if got := receive(t, ch, 1); got[0] != y.Code {
		t.Fatalf("first change heard: %s, want %s (changed by the other store)", got[0], y.Code)
	}
	r.Down()
	r.Up()
	if got := receive(t, ch, len(all)); !slices.Equal(got, all) {
		t.Fatalf("after redis restarted: %v, want every room and chat %v", got, all)
	}
	cancel()
	for range ch { // closes once ctx ends
	}
}

// receive takes n codes from ch, sorted.
func receive(t *testing.T, ch <-chan string, n int) []string {
	t.Helper()
	var got []string
	deadline := time.After(10 * time.Second)
	for len(got) < n {
		select {
		case c, ok := <-ch:
			if !ok {
				t.Fatalf("changes closed after %v", got)
			}
			got = append(got, c)
		case <-deadline:
			t.Fatalf("got %v within 10s, want %d codes", got, n)
		}
	}
	slices.Sort(got)
	return got
}

// instance is one smokestack server: its own Redis connection and lobby.
type instance struct {
	store *RedisStore
	lobby *Lobby
	stop  context.CancelFunc
	done  chan struct{} // closed when the lobby's Run has returned
}

func newInstance(t *testing.T, r *redistest.Server) *instance {
	t.Helper()
	s := openRedis(t, r)
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
	ctx := context.Background()
	r := redistest.Start(t)
	g := &redisGame{r: r, a: newInstance(t, r), b: newInstance(t, r),
		alice: Player{ID: "key:alice", Name: "alice"}, bob: Player{ID: "key:bob", Name: "bob"}}
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
	return g
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

func TestRedisTwoInstancesPlayOut(t *testing.T) {
	t.Parallel()
	g := newRedisGame(t, 7)
	g.play(t, -1)
	g.sameEverywhere(t)
	a, b := g.seats[0].view(), g.seats[1].view()
	if a.Over == false || a.Scores == nil || !slices.Equal(a.Scores, b.Scores) {
		t.Fatalf("players see different ends: %+v vs %+v", a.Scores, b.Scores)
	}
	if g.moves < 20 {
		t.Fatalf("game over after only %d moves", g.moves)
	}
}

// TestRedisRacingInstances hammers the room from both instances at once:
// each seat is played by a session on each instance, all four moving as
// fast as they can. Every accepted move must be in the log exactly once.
func TestRedisRacingInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 11)
	// Each player also joins through the other instance.
	ab, err := g.b.lobby.Join(ctx, g.code, g.alice)
	if err != nil {
		t.Fatal(err)
	}
	ba, err := g.a.lobby.Join(ctx, g.code, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	racers := []*session{g.seats[0], g.seats[1], {name: "alice@b", c: ab}, {name: "bob@a", c: ba}}
	var accepted atomic.Int64
	errs := make([]error, len(racers))
	var wg sync.WaitGroup
	for i, s := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = race(ctx, s, &accepted)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	_, moves, err := g.a.store.Load(ctx, g.code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(moves)) != accepted.Load() {
		t.Fatalf("redis holds %d moves, %d were accepted", len(moves), accepted.Load())
	}
	// The stored log is a valid game: it replays move by move to its end.
	_, frames, err := g.a.lobby.Replay(ctx, g.code, g.alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(moves)+1 {
		t.Fatalf("replay has %d frames for %d moves", len(frames), len(moves))
	}
	g.moves = len(moves)
	g.synced(t, g.moves)
	g.sameEverywhere(t)
	if g.watchers[0].view().Over == false {
		t.Fatal("racers stopped before the game ended")
	}
	t.Logf("%d moves accepted from 4 racing sessions on 2 instances", len(moves))
}

// race plays s's seat until the game ends, counting accepted moves. A move
// chosen from a view that is already stale may be refused; the session
// then waits for the newer view, as a person would.
func race(ctx context.Context, s *session, accepted *atomic.Int64) error {
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := s.await(10*time.Second, func(Update) bool { return true }); err != nil {
			return err
		}
		u := s.last
		v := s.view()
		if u.Room.Over || v.Over {
			return nil
		}
		if len(v.Legal) == 0 {
			// Not this seat's turn: wait for anything newer.
			if _, err := s.await(10*time.Second, func(n Update) bool { return n.Version != u.Version || n.Room.Over }); err != nil {
				return err
			}
			continue
		}
		raw, _ := json.Marshal(pick(v.Legal))
		if err := s.c.Move(ctx, raw); err == nil {
			accepted.Add(1)
			continue
		} else if errors.Is(err, errNotPlayed) {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		// Refused as stale: the newer state is on its way (or here).
		_, _ = s.await(200*time.Millisecond, func(n Update) bool { return n.Version != u.Version })
	}
	return fmt.Errorf("%s: game not over after 40s", s.name)
}

// TestRedisInstanceKilled: instance b dies mid-game; bob reconnects through
// the balancer to instance a, lands in his seat and the game finishes.
func TestRedisInstanceKilled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 5)
	g.play(t, 15)
	before := g.seats[1].last
	g.b.kill()
	c, err := g.a.lobby.Join(ctx, g.code, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	bob := &session{name: "bob@a", c: c}
	if u, err := bob.await(5*time.Second, atVersion(g.moves)); err != nil || string(u.View) != string(before.View) || c.Seat() != 1 {
		t.Fatalf("bob back on a: seat %d, view as before %v, err %v", c.Seat(), string(u.View) == string(before.View), err)
	}
	g.seats[1] = bob
	// A new instance comes up in b's place and shows the room too.
	g.b = newInstance(t, g.r)
	w, err := g.b.lobby.Watch(ctx, g.invite, Player{ID: "key:watcher"})
	if err != nil {
		t.Fatal(err)
	}
	g.watchers[1] = &session{name: "watcher@new", c: w}
	g.play(t, -1)
	if g.watchers[0].view().Over == false {
		t.Fatal("game did not finish on the surviving instance")
	}
	g.sameEverywhere(t)
}

// TestRedisRestart: Redis dies mid-game. A move then fails as a whole,
// with a notice on the player's screen, and leaves no trace in the log;
// once Redis is back (its append-only file intact) both instances resync
// by themselves and the game finishes.
func TestRedisRestart(t *testing.T) {
	t.Parallel()
	g := newRedisGame(t, 3)
	g.play(t, 10)
	g.r.Down()

	seat := 0
	if len(g.seats[0].view().Legal) == 0 {
		seat = 1
	}
	s := g.seats[seat]
	raw, _ := json.Marshal(pick(s.view().Legal))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.c.Move(ctx, raw); !errors.Is(err, errNotPlayed) {
		t.Fatalf("move with redis down: %v, want errUnavailable", err)
	}
	if u, err := s.await(5*time.Second, func(u Update) bool { return u.Notice != "" }); err != nil || u.Version != g.moves {
		t.Fatalf("no notice after a failed move (version %d, want %d): %v", u.Version, g.moves, err)
	}

	g.r.Up()
	_, moves, err := g.a.store.Load(ctx, g.code, 0)
	if err != nil {
		t.Fatalf("load after restart: %v", err)
	}
	if len(moves) != g.moves {
		t.Fatalf("redis holds %d moves after restart, want %d", len(moves), g.moves)
	}
	for _, s := range g.all() {
		if _, err := s.await(10*time.Second, func(u Update) bool { return u.Notice == "" }); err != nil {
			t.Fatalf("no recovery after restart: %v", err)
		}
		// Presence heals too: each instance shows the other's player at
		// the table, which only that instance's claim can tell it.
		if _, err := s.await(10*time.Second, func(u Update) bool { return seatShown(0, true)(u) && seatShown(1, true)(u) }); err != nil {
			t.Fatalf("presence did not heal after restart: %v", err)
		}
	}
	g.play(t, -1)
	if g.watchers[0].view().Over == false {
		t.Fatal("game did not finish after the restart")
	}
	g.sameEverywhere(t)
}
