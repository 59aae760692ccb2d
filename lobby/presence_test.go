package lobby

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// seatShown is a condition on seat as an update shows it: connected, or
// away with the time it left.
func seatShown(seat int, connected bool) func(Update) bool {
	return func(u Update) bool {
		s := u.Room.Seats[seat]
		return s.Connected == connected && s.AwaySince.IsZero() == connected
	}
}

// TestRedisPresenceAcrossInstances: alice plays through instance a, bob
// through b. Whether bob is at the table, and since when he is away, is
// the same on both instances; the table cannot hand his seat to a bot while
// he plays through the other instance; and the seats of an instance that
// dies lapse to away by themselves within the presence TTL.
func TestRedisPresenceAcrossInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 13)
	alice, bob, watcherB := g.seats[0], g.seats[1], g.watchers[1]
	const within = 10 * time.Second

	if _, err := alice.await(within, seatShown(1, true)); err != nil {
		t.Fatalf("bob, playing through b, not shown connected on a: %v", err)
	}
	if err := g.a.lobby.AddBot(ctx, g.code, g.alice, 1, "first"); err == nil || !strings.Contains(err.Error(), "bob is still playing seat 2") {
		t.Fatalf("host on a handed bob's seat to a bot while bob plays through b: %v", err)
	}

	// Bob drops on b: alice on a is shown him away, since the same moment
	// as b shows.
	bob.c.Close()
	ua, err := alice.await(within, seatShown(1, false))
	if err != nil {
		t.Fatalf("bob left b, alice on a not told: %v", err)
	}
	since := ua.Room.Seats[1].AwaySince
	ub, err := watcherB.await(within, seatShown(1, false))
	if err != nil {
		t.Fatal(err)
	}
	info, err := g.b.lobby.Info(ctx, g.code, g.alice)
	if err != nil {
		t.Fatal(err)
	}
	if got := ub.Room.Seats[1].AwaySince; !got.Equal(since) || !info.Seats[1].AwaySince.Equal(since) {
		t.Fatalf("bob away since %v on a, but %v (updates) / %v (info) on b", since, got, info.Seats[1].AwaySince)
	}

	// He comes back through a: both instances show him connected.
	ca, err := g.a.lobby.Join(ctx, g.code, g.bob)
	if err != nil || ca.Seat() != 1 {
		t.Fatalf("bob back on a: seat %v, %v", ca, err)
	}
	bobA := &session{name: "bob@a", c: ca}
	for _, s := range []*session{alice, watcherB, bobA} {
		if _, err := s.await(within, seatShown(1, true)); err != nil {
			t.Fatalf("bob back on a, not shown connected: %v", err)
		}
	}

	// He moves to b again, and b dies without a goodbye.
	joinedB := time.Now().Truncate(time.Millisecond)
	bobA.c.Close()
	cb, err := g.b.lobby.Join(ctx, g.code, g.bob)
	if err != nil {
		t.Fatal(err)
	}
	g.seats[1] = &session{name: "bob@b", c: cb}
	// a has no session of bob's now, so only b's claim can show him here.
	if _, err := alice.await(within, seatShown(1, true)); err != nil {
		t.Fatalf("bob on b again, not shown connected on a: %v", err)
	}
	g.b.kill()
	killed := time.Now()
	ua, err = alice.await(within, seatShown(1, false))
	lapsed := time.Since(killed)
	if err != nil {
		t.Fatalf("b killed, bob's seat did not lapse to away on a: %v", err)
	}
	t.Logf("b's claim lapsed on a %v after the kill (TTL %v)", lapsed.Round(time.Millisecond), testPresenceTTL)
	if lapsed > 3*testPresenceTTL {
		t.Errorf("bob's seat lapsed %v after b died; the TTL is %v", lapsed, testPresenceTTL)
	}
	// Away since b last renewed its claim: after bob sat down there,
	// before it died.
	if s := ua.Room.Seats[1].AwaySince; s.Before(joinedB) || s.After(killed) {
		t.Fatalf("bob away since %v; b held his seat from %v until it died at %v", s, joinedB, killed)
	}
	// Exactly since b was last known alive: its last heartbeat, or its
	// claim if written later, both in Redis for every instance to read.
	if want := lastAlive(t, rawRedis(t, g.r), g.code, g.b.store); !ua.Room.Seats[1].AwaySince.Equal(want) {
		t.Fatalf("bob away since %v on a, but b was last alive at %v", ua.Room.Seats[1].AwaySince, want)
	}
	// To the table's vote bob is away too: alice's vote is refused only
	// for his grace period, not for his being at the table.
	if _, err := g.a.lobby.Vote(ctx, g.code, g.alice, 1); err == nil || !strings.Contains(err.Error(), "bob has been away") {
		t.Fatalf("alice's vote on bob, away since b died: %v", err)
	}
}

// lastAlive is when the instance of store s was last known alive, as
// Redis holds it: its last heartbeat, or its claim on room code if that
// is later.
func lastAlive(t *testing.T, rdb *redis.Client, code string, s *redisstore.Store) time.Time {
	t.Helper()
	ctx := context.Background()
	beats, err := rdb.HGetAll(ctx, instancesKey).Result()
	if err != nil {
		t.Fatal(err)
	}
	claim, err := rdb.HGet(ctx, "smokestack:{"+code+"}:presence", "claim:"+s.Origin()).Result()
	if err != nil {
		t.Fatal(err)
	}
	at, _, _ := strings.Cut(claim, ":")
	var last time.Time
	for _, v := range []string{beats[s.Origin()], at} {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			t.Fatalf("a time in Redis: %q: %v", v, err)
		}
		if t := time.UnixMilli(ms).UTC(); t.After(last) {
			last = t
		}
	}
	return last
}

// TestRedisPresenceCleanShutdown: an instance that stops cleanly withdraws
// its claims before its lobby's Run returns, so the others show its players
// away at once instead of after the TTL.
func TestRedisPresenceCleanShutdown(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 17)
	if _, err := g.seats[0].await(10*time.Second, seatShown(1, true)); err != nil {
		t.Fatal(err)
	}
	// What b announces, as the other instances hear it.
	rdb := rawRedis(t, g.r)
	heard := rdb.SSubscribe(ctx, roomChannel(g.code))
	defer heard.Close()
	if _, err := heard.Receive(ctx); err != nil { // subscribed
		t.Fatal(err)
	}
	// The room's presence hash holds a claim:ORIGIN field per instance
	// holding seats: a's and b's.
	presence := "smokestack:{" + g.code + "}:presence"
	claims := func() map[string]bool {
		t.Helper()
		fields, err := rdb.HGetAll(ctx, presence).Result()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for f := range fields {
			if origin, ok := strings.CutPrefix(f, "claim:"); ok {
				out[origin] = true
			}
		}
		return out
	}
	eventually(t, "a and b claim their seats", func() bool { return len(claims()) == 2 })
	before := claims()
	g.b.stop()
	<-g.b.done
	after := claims()
	if len(after) != 1 {
		t.Fatalf("b stopped, claims still there: %v, want a's alone", after)
	}
	var bOrigin string
	for origin := range before {
		if !after[origin] {
			bOrigin = origin
		}
	}
	// The withdrawal was announced, so the others read it at once rather
	// than at their next renewal, let alone when the claim would lapse.
	within, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	for want := bOrigin + " seats:" + g.code; ; {
		msg, err := heard.ReceiveMessage(within)
		if err != nil {
			t.Fatalf("b stopped without announcing its withdrawal from room %s: %v", g.code, err)
		}
		if msg.Payload == want {
			break
		}
	}
	if _, err := g.seats[0].await(10*time.Second, seatShown(1, false)); err != nil {
		t.Fatalf("b stopped, alice on a not shown bob away: %v", err)
	}
}

// TestRedisExpiryKeepsTablesInUseElsewhere: an instance expiring idle rooms
// leaves alone a room whose only player sits at it through another
// instance, and removes it once that player has gone.
func TestRedisExpiryKeepsTablesInUseElsewhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := redistest.Start(t)
	b := newInstance(t, r)
	a := New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()},
		Expire: time.Millisecond, PresenceTTL: testPresenceTTL})
	host := Player{ID: "key:pat", Name: "pat"}
	m, err := a.Create(ctx, host, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.lobby.Join(ctx, m.Code, host)
	if err != nil {
		t.Fatal(err)
	}
	held := func() bool {
		p, err := a.cluster.SeatPresence(ctx, m.Code)
		elsewhere, _ := p.Seats(a.heartbeats(), a.claims.ttl)
		return err == nil && elsewhere[0]
	}
	eventually(t, "b claims pat's seat", held)
	// The room must be idle past a's 1ms expiry, or it would survive the
	// first expiry below for that alone: the clock passes its stored
	// Updated time within a few milliseconds.
	stored, _, err := a.cfg.Store.Load(ctx, m.Code, 0)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the room is idle past its expiry", func() bool {
		return a.cfg.Now().Add(-a.cfg.Expire).After(stored.Updated)
	})
	a.ExpireRooms(ctx)
	if _, _, err := a.cfg.Store.Load(ctx, m.Code, 0); err != nil {
		t.Fatalf("a expired the room pat plays through b: %v", err)
	}
	c.Close()
	eventually(t, "b withdraws pat's seat", func() bool { return !held() })
	a.ExpireRooms(ctx)
	if _, _, err := a.cfg.Store.Load(ctx, m.Code, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the abandoned room survived expiry: %v", err)
	}
}

// TestRedisPresenceHeartbeatsAreQuiet: an instance keeps its claims on
// held seats alive with its heartbeat alone, a few times a TTL, however
// many rooms it holds. Nothing on anyone's screen changes with a
// heartbeat, so no session is sent an update for it, and no claim is
// written again: the room's presence in Redis stays as it was.
func TestRedisPresenceHeartbeatsAreQuiet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisGame(t, 14)
	for _, s := range g.all() {
		if _, err := s.await(10*time.Second, func(u Update) bool { return u.Room.Seats[0].Connected && u.Room.Seats[1].Connected }); err != nil {
			t.Fatal(err)
		}
	}
	rdb := rawRedis(t, g.r)
	presence := "smokestack:{" + g.code + "}:presence"
	g.heartbeats(t, rdb, 2) // the claims made at sit-down settle
	for _, s := range g.all() {
		s.drain()
	}
	before, err := rdb.HGetAll(ctx, presence).Result()
	if err != nil {
		t.Fatal(err)
	}
	g.heartbeats(t, rdb, 4)
	for _, s := range g.all() {
		select {
		case u := <-s.c.Updates():
			t.Errorf("%s was sent an update while nothing changed: version %d, seats %+v", s.name, u.Version, u.Room.Seats)
		default:
		}
	}
	after, err := rdb.HGetAll(ctx, presence).Result()
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(before, after) {
		t.Errorf("the room's presence was written while its seats did not change:\nbefore %v\nafter  %v", before, after)
	}
}

// heartbeats waits until each instance's heartbeat in Redis has moved n
// times. An instance reads the others' heartbeats as it beats, so by
// then all but the last counted have been taken in.
func (g *redisGame) heartbeats(t *testing.T, rdb *redis.Client, n int) {
	t.Helper()
	ctx := context.Background()
	last, moved := map[string]string{}, map[string]int{}
	eventually(t, fmt.Sprintf("%d heartbeats of each instance", n), func() bool {
		beats, err := rdb.HGetAll(ctx, instancesKey).Result()
		if err != nil {
			t.Fatal(err)
		}
		done := true
		for _, in := range []*instance{g.a, g.b} {
			name, at := in.store.Origin(), beats[in.store.Origin()]
			if at != last[name] {
				if last[name] != "" {
					moved[name]++
				}
				last[name] = at
			}
			done = done && moved[name] >= n
		}
		return done
	})
}

// instancesKey is the hash of every instance's last heartbeat
// (lobby/store/redis/keys.go).
const instancesKey = "smokestack:{uptime}:instances"

// TestRedisMovesReadNoPresence: a move is news of the game alone, so the
// instance that hears it catches up on the log and reads no presence;
// presence is read when a claim changes, announced apart.
func TestRedisMovesReadNoPresence(t *testing.T) {
	t.Parallel()
	g := newRedisGame(t, 15)
	if g.r.External {
		t.Skip("REDIS_URL is set: this test watches every command of the Redis it starts")
	}
	if _, err := g.seats[0].await(10*time.Second, seatShown(1, true)); err != nil {
		t.Fatal(err)
	}
	g.heartbeats(t, rawRedis(t, g.r), 2) // the sit-down's reads are over
	reads := monitor(t, g.r, `"hgetall" "smokestack:{`+g.code+`}:presence"`)
	g.play(t, 6)
	if n := reads(); n != 0 {
		t.Errorf("6 moves heard across instances read the room's presence %d times", n)
	}
	g.seats[1].c.Close() // bob leaves b: b's claim changes
	if _, err := g.seats[0].await(10*time.Second, seatShown(1, false)); err != nil {
		t.Fatal(err)
	}
	if reads() == 0 {
		t.Error("bob left b and a read no presence: the count counts nothing")
	}
}
