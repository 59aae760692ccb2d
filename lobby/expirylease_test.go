package lobby

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store/mem"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// The expiry lease: which one instance expires rooms, and how it moves
// when that one stops or is killed. What a pass reads is expiry_test.go.

// testExpiryLease keeps the lease tests short while leaving a loaded
// machine room for a late renewal.
const testExpiryLease = 2 * time.Second

// expiryInstance runs a lobby on s that expires rooms idle for an hour,
// holding the expiry lease for testExpiryLease.
func expiryInstance(t *testing.T, s *redisstore.Store) *instance {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l := New(Config{Store: s, Games: []Game{tallyGame()}, PresenceTTL: testPresenceTTL,
		Expire: time.Hour, ExpiryLease: testExpiryLease})
	in := &instance{store: s, lobby: l, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(in.done)
		in.lobby.Run(ctx)
	}()
	return in
}

// holder waits until exactly one of ins holds the expiry lease, and
// returns its index.
func holder(t *testing.T, ins []*instance) int {
	t.Helper()
	at := -1
	eventually(t, "one instance holds the expiry lease", func() bool {
		at = -1
		for i, in := range ins {
			if in != nil && in.lobby.HoldsExpiry() {
				if at >= 0 {
					t.Fatalf("instances %d and %d both hold the expiry lease", at, i)
				}
				at = i
			}
		}
		return at >= 0
	})
	return at
}

// TestRedisExpiryLeaseMoves: three instances share one Redis, and one at
// a time holds the expiry lease. When its holder dies without releasing
// it (killed: its connections closed, nothing said) or is cut off from
// Redis while alive (a partition), another instance takes the lease over
// once it lapses, within its TTL and a renewal, and expires the rooms
// that became due meanwhile, leaving the rest. The one cut off stops
// believing it holds the lease.
func TestRedisExpiryLeaseMoves(t *testing.T) {
	for _, how := range []string{"killed", "cut off"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			r := redistest.Start(t)
			u, err := url.Parse(r.URL)
			if err != nil {
				t.Fatal(err)
			}
			ins := make([]*instance, 3)
			proxies := make([]*redistest.Proxy, 3)
			for i := range ins {
				proxies[i] = redistest.StartProxy(t, u.Host)
				via := *u
				via.Host = proxies[i].Addr
				s, err := redisstore.Open(context.Background(), via.String())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				ins[i] = expiryInstance(t, s)
			}
			first := holder(t, ins)
			raw := openRedis(t, r)
			due := storeRooms(t, raw, 10, time.Now().Add(-2*time.Hour))
			fresh := storeRooms(t, raw, 5, time.Now().Add(-time.Minute))
			if n := stored(t, raw, due); n != len(due) {
				t.Fatalf("%d of %d due rooms gone before the holder's next pass: an instance without the lease expired them", len(due)-n, len(due))
			}
			start := time.Now()
			switch how {
			case "killed":
				ins[first].kill()
			case "cut off":
				proxies[first].Stall()
			}
			rest := append([]*instance(nil), ins...)
			rest[first] = nil
			next := holder(t, rest)
			took := time.Since(start)
			eventually(t, "the new holder expires the due rooms", func() bool { return stored(t, raw, due) == 0 })
			t.Logf("instance %d took the lease over %v after instance %d was %s (ttl %v)", next, took.Round(time.Millisecond), first, how, testExpiryLease)
			// The lease lapses a ttl after the last renewal, which was at
			// most a third of a ttl before; the others try every third.
			if limit := testExpiryLease*5/3 + time.Second; took > limit {
				t.Errorf("the lease moved %v after its holder was %s, want within %v", took, how, limit)
			}
			if n := stored(t, raw, fresh); n != len(fresh) {
				t.Errorf("%d of %d rooms not yet due were expired", len(fresh)-n, len(fresh))
			}
			if how == "cut off" {
				eventually(t, "the instance cut off stops believing it holds the lease", func() bool {
					return !ins[first].lobby.HoldsExpiry()
				})
			}
		})
	}
}

// TestRedisExpiryLeaseReleased: an instance shut down cleanly releases
// the expiry lease, so another takes it at its next try (a third of the
// ttl) rather than once it lapses (two thirds of the ttl at least).
func TestRedisExpiryLeaseReleased(t *testing.T) {
	t.Parallel()
	r := redistest.Start(t)
	const ttl = 9 * time.Second
	ins := make([]*instance, 2)
	for i := range ins {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		l := New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Expire: time.Hour, ExpiryLease: ttl})
		ins[i] = &instance{lobby: l, stop: cancel, done: make(chan struct{})}
		go func() {
			defer close(ins[i].done)
			l.Run(ctx)
		}()
	}
	first := holder(t, ins)
	ins[first].stop()
	<-ins[first].done
	rest := append([]*instance(nil), ins...)
	rest[first] = nil
	start := time.Now()
	holder(t, rest)
	if took := time.Since(start); took >= ttl*2/3 {
		t.Errorf("the lease was taken %v after its holder released it: it lapsed rather than being released", took)
	}
}

// TestRedisExpiryOffTakesNoLease: an instance run with expiry off
// (--expire 0, no profile expiry) never takes the expiry lease, so it
// cannot keep an instance that expires from doing so, even when it
// starts first.
func TestRedisExpiryOffTakesNoLease(t *testing.T) {
	t.Parallel()
	r := redistest.Start(t)
	run := func(cfg Config) *instance {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		l := New(cfg)
		in := &instance{lobby: l, stop: cancel, done: make(chan struct{})}
		go func() {
			defer close(in.done)
			l.Run(ctx)
		}()
		return in
	}
	off := run(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, ExpiryLease: testExpiryLease})
	// Two of its renewal rounds: time enough to take a free lease.
	time.Sleep(testExpiryLease * 2 / 3)
	if off.lobby.HoldsExpiry() {
		t.Fatal("an instance with expiry off took the expiry lease")
	}
	on := run(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Expire: time.Hour, ExpiryLease: testExpiryLease})
	if got := holder(t, []*instance{off, on}); got != 1 {
		t.Fatalf("instance %d holds the expiry lease, want the one that expires", got)
	}
}

// TestSingleNodeHoldsExpiry: with a store of its own, an instance holds
// the expiry lease without asking anyone, and its Run expires at once.
func TestSingleNodeHoldsExpiry(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	clk := &clock{now: t0}
	st := mem.New()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Expire: time.Hour, Now: clk.Now})
	m, err := l.Create(ctx, Player{ID: "key:h", Name: "hana"}, CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	if !l.HoldsExpiry() {
		t.Error("a single node does not hold the expiry lease")
	}
	clk.advance(2 * time.Hour)
	done := make(chan struct{})
	go func() { defer close(done); l.Run(ctx) }()
	defer func() { cancel(); <-done }()
	eventually(t, "the single node expires the abandoned room", func() bool { return stored(t, st, []string{m.Code}) == 0 })
}

// TestRedisClusterExpiryLeaseMoves: on a Redis Cluster too, the lease
// moves from a killed holder to another instance within its TTL and a
// renewal, and the new holder expires the due rooms, whose index and
// metadata lie in other slots than the lease.
func TestRedisClusterExpiryLeaseMoves(t *testing.T) {
	c := redistest.StartCluster(t)
	open := func() *redisstore.Store {
		s, err := redisstore.OpenCluster(context.Background(), c.URL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	ins := make([]*instance, 3)
	for i := range ins {
		ins[i] = expiryInstance(t, open())
	}
	first := holder(t, ins)
	raw := open()
	due := storeRooms(t, raw, 10, time.Now().Add(-2*time.Hour))
	fresh := storeRooms(t, raw, 5, time.Now().Add(-time.Minute))
	start := time.Now()
	ins[first].kill()
	rest := append([]*instance(nil), ins...)
	rest[first] = nil
	next := holder(t, rest)
	took := time.Since(start)
	eventually(t, "the new holder expires the due rooms", func() bool { return stored(t, raw, due) == 0 })
	t.Logf("instance %d took the lease over %v after instance %d was killed (ttl %v)", next, took.Round(time.Millisecond), first, testExpiryLease)
	if limit := testExpiryLease*5/3 + time.Second; took > limit {
		t.Errorf("the lease moved %v after its holder was killed, want within %v", took, limit)
	}
	if n := stored(t, raw, fresh); n != len(fresh) {
		t.Errorf("%d of %d rooms not yet due were expired", len(fresh)-n, len(fresh))
	}
}
