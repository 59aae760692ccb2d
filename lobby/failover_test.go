package lobby

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// The fault tests kill, stop and cut off real Redis servers under two
// lobby instances while moves flow, and then hold the stored logs to what
// the players were told. SMOKESTACK_FAULTS_LONG runs them at full length.
var faultsLong = os.Getenv("SMOKESTACK_FAULTS_LONG") != ""

// TestRedisSentinelKills kills the Sentinel-managed primary mid-game,
// again and again, while two instances play: not one confirmed move is
// lost or played twice, every room's log replays to what its players
// saw, and every session plays on. The time from each kill to the first
// move confirmed after it is logged.
func TestRedisSentinelKills(t *testing.T) {
	kills := 20
	sn := redistest.StartSentinel(t, 2)
	// With two replicas, --redis-replicas 2: whichever the sentinels
	// promote holds every confirmed move (see docs/deployment.md).
	f := newFaultRig(t, sn.URL, redisstore.Options{Replicas: 2})
	ctx := context.Background()
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- f.run(ctx, stop, 20*time.Millisecond) }()

	var worst, total time.Duration
	for i := range kills {
		sn.AwaitReplicas(2, 30*time.Second)
		f.flowing(t, done, 5)
		old := sn.Primary()
		killed := time.Now()
		old.Kill()
		sn.AwaitFailover(old, 20*time.Second)
		sn.Rejoin(old)
		back := f.confirmedAfter(t, done, killed, time.Minute, sn.Describe)
		took := back.Sub(killed)
		t.Logf("kill %2d: %s down, first move sent after it confirmed %s after the kill", i+1, old.Addr(), took.Round(time.Millisecond))
		worst, total = max(worst, took), total+took
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	moves := f.check(ctx)
	told, refused, unconfirmed := f.refusals()
	t.Logf("%d kills: kill to first confirmed move %s on average, %s at worst; %d moves in %d rooms, %d refused as not played, %d as unconfirmed, %d sessions saw the notice",
		kills, (total / time.Duration(kills)).Round(time.Millisecond), worst.Round(time.Millisecond), moves, len(f.tables), refused, unconfirmed, told)
}

// play, for 30s with SMOKESTACK_FAULTS_LONG and 5s otherwise. Every
// session stays and is told the service is reconnecting, and once Redis
// answers again (SIGCONT) the games play on and nothing confirmed is lost
// or played twice.
func TestRedisPaused(t *testing.T) {
	t.Parallel()
	pause := 5 * time.Second
	if faultsLong {
		pause = 30 * time.Second
	}
	r := redistest.StartOwn(t, "this test stops the Redis it starts")
	f := newFaultRig(t, r.URL, redisstore.Options{})
	ctx := context.Background()
	stop := make(chan struct{})
	done := make(chan error, 1)
	// At a slower pace, so the pause falls in the middle of a game.
	go func() { done <- f.run(ctx, stop, 100*time.Millisecond) }()
	f.flowing(t, done, 5)

	tb := f.current()
	for _, w := range tb.watchers {
		w.told.Store(false)
	}
	r.Pause()
	stopped := time.Now()
	for i, w := range tb.watchers {
		for !w.told.Load() && time.Since(stopped) < pause {
			time.Sleep(10 * time.Millisecond) // polling the watchers
		}
		if !w.told.Load() {
			t.Errorf("the watcher on instance %c was not told within the %s Redis was away", 'a'+i, pause)
		}
	}
	time.Sleep(time.Until(stopped.Add(pause)))
	r.Resume()
	f.flowing(t, done, 10)
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	moves := f.check(ctx)
	_, refused, unconfirmed := f.refusals()
	// A move sent meanwhile waits for Redis until its deadline or its
	// retries run out: it is refused, or played once when Redis wakes.
	t.Logf("Redis stopped %s: %d moves in %d rooms, %d refused as not played, %d as unconfirmed", pause, moves, len(f.tables), refused, unconfirmed)
}

// TestRedisHiccup: the network between instance b and Redis stalls and
// then drops b's connections, three times, while alice plays on a and
// bob on b. Instance b resubscribes and catches up each time: its
// players see every move made meanwhile, and the games play on.
func TestRedisHiccup(t *testing.T) {
	t.Parallel()
	r := redistest.StartOwn(t, "this test puts a proxy before the Redis it starts")
	link := redistest.StartProxy(t, r.Addr())
	l := newLedger()
	f := &faultRig{t: t, url: r.URL, l: l,
		a: newLedgerInstance(t, r.URL, redisstore.Options{}, l),
		b: newLedgerInstance(t, "redis://"+link.Addr+"/0", redisstore.Options{}, l)}
	ctx := context.Background()
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- f.run(ctx, stop, 20*time.Millisecond) }()
	for range 3 {
		f.flowing(t, done, 10)
		link.Stall()
		time.Sleep(time.Second) // b hears nothing, and its moves hang
		link.Cut()
	}
	f.flowing(t, done, 10)
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	moves := f.check(ctx)
	_, refused, unconfirmed := f.refusals()
	t.Logf("3 hiccups: %d moves in %d rooms, %d refused as not played, %d as unconfirmed", moves, len(f.tables), refused, unconfirmed)
}
