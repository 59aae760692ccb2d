package lobby

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/internal/tally"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// TestRedisKilledInstanceFreesSeats: rooms play with alice on instance
// a, bob on b and a watcher on c, moves flowing, when b is killed: the
// network to its Redis stops passing anything, as when a machine is
// gone, and its lobby stops with its goodbye stuck there, so its claims
// on bob's seats are never withdrawn. a and c show every bob away once
// b's heartbeat has been silent for the TTL (not before; within one of
// their heartbeats after), away since b was last alive, the same on
// both; a vote on bob's seat waits for his grace period, not for him;
// and every move confirmed before the kill is in its room's log.
func TestRedisKilledInstanceFreesSeats(t *testing.T) {
	t.Parallel()
	r := redistest.StartOwn(t, "this test puts a proxy before the Redis it starts")
	ctx := context.Background()
	link := redistest.StartProxy(t, r.Addr())
	l := newLedger()
	a := newLedgerInstance(t, r.URL, redisstore.Options{}, l)
	b := newLedgerInstance(t, "redis://"+link.Addr+"/0", redisstore.Options{}, l)
	c := newLedgerInstance(t, r.URL, redisstore.Options{}, l)

	type table struct {
		code             string
		bobSeat          int
		alice, bob       Player
		aliceA, watchC   *session
		aliceMv, bobMove *session
	}
	const rooms = 6
	tables := make([]*table, rooms)
	for i := range tables {
		tb := &table{alice: Player{ID: fmt.Sprintf("key:alice%d", i), Name: fmt.Sprintf("alice%d", i)},
			bob: Player{ID: fmt.Sprintf("key:bob%d", i), Name: fmt.Sprintf("bob%d", i)}}
		m, err := a.lobby.Create(ctx, tb.alice, CreateOptions{Seats: 2, Seed: uint64(i + 1), HasSeed: true})
		if err != nil {
			t.Fatal(err)
		}
		ca, err := a.lobby.Join(ctx, m.Code, tb.alice)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := b.lobby.Join(ctx, m.Invite(), tb.bob)
		if err != nil {
			t.Fatal(err)
		}
		wa, err := a.lobby.Watch(ctx, m.Invite(), Player{ID: "key:watcher"})
		if err != nil {
			t.Fatal(err)
		}
		wc, err := c.lobby.Watch(ctx, m.Invite(), Player{ID: "key:watcher"})
		if err != nil {
			t.Fatal(err)
		}
		tb.code, tb.bobSeat = m.Code, cb.Seat()
		tb.aliceMv, tb.bobMove = &session{name: "alice@a", c: ca}, &session{name: "bob@b", c: cb}
		tb.aliceA, tb.watchC = &session{name: "watcher@a", c: wa}, &session{name: "watcher@c", c: wc}
		tables[i] = tb
	}
	for _, tb := range tables {
		for _, s := range []*session{tb.aliceA, tb.watchC} {
			if _, err := s.await(10*time.Second, seatShown(tb.bobSeat, true)); err != nil {
				t.Fatalf("room %s: bob on b not shown connected: %v", tb.code, err)
			}
		}
	}

	// Load: every seat plays as fast as its turns come.
	rdb := rawRedis(t, r)
	stop := make(chan struct{})
	playing, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for _, tb := range tables {
		for _, s := range []*session{tb.aliceMv, tb.bobMove} {
			wg.Go(func() { playUntil(playing, stop, s) })
		}
	}
	// Half the games' moves, b's heartbeat renewed a few times meanwhile.
	eventually(t, "120 moves confirmed", func() bool { n, _ := l.confirmed(time.Now()); return n >= 120 })

	link.Stall() // b's machine is gone: nothing reaches Redis from it
	killed := time.Now()
	b.stop() // and its lobby with it: the goodbye hangs in the stall
	close(stop)
	confirmed, _ := l.confirmed(killed)
	var worst time.Duration
	for i, tb := range tables {
		var since []time.Time
		for _, s := range []*session{tb.aliceA, tb.watchC} {
			u, err := s.await(3*testPresenceTTL+5*time.Second, seatShown(tb.bobSeat, false))
			if err != nil {
				t.Fatalf("room %s: b killed, bob's seat not freed on %s: %v (seats %+v)", tb.code, s.name, err, s.last.Room.Seats)
			}
			worst = max(worst, time.Since(killed))
			since = append(since, u.Room.Seats[tb.bobSeat].AwaySince)
		}
		last := lastAlive(t, rdb, tb.code, b.store)
		if time.Now().Before(last.Add(testPresenceTTL)) {
			t.Errorf("room %s: bob's seat freed before b's TTL ran out (b last alive at %v)", tb.code, last)
		}
		if !since[0].Equal(last) || !since[1].Equal(last) {
			t.Errorf("room %s: bob away since %v on a and %v on c; b was last alive at %v", tb.code, since[0], since[1], last)
		}
		if i == 0 {
			if _, err := a.lobby.Vote(ctx, tb.code, tb.alice, tb.bobSeat); err == nil || !strings.Contains(err.Error(), "has been away") {
				t.Errorf("room %s: alice's vote on bob, whose instance died: %v, want his grace period", tb.code, err)
			}
		}
	}
	t.Logf("b killed with %d moves confirmed: bob's seats in %d rooms freed on a and c within %v of the kill (TTL %v, a heartbeat every %v)",
		confirmed, rooms, worst.Round(time.Millisecond), testPresenceTTL, testPresenceTTL/3)
	if worst > 2*testPresenceTTL+testPresenceTTL/3 {
		t.Errorf("seats freed %v after the kill: more than the TTL, a heartbeat and a TTL's slack", worst)
	}

	cancel()
	wg.Wait()
	for _, tb := range tables {
		_, log, err := a.store.Load(ctx, tb.code, 0)
		if err != nil {
			t.Fatal(err)
		}
		l.mu.Lock()
		for at, rec := range l.acked[tb.code] {
			if at >= len(log) || !sameRecord(log[at], rec) {
				t.Errorf("room %s: confirmed move %d (%s by seat %d) is not in the log of %d", tb.code, at, rec.Move, rec.Seat, len(log))
			}
		}
		l.mu.Unlock()
	}
}

// playUntil plays s's seat whenever it has a legal move, quickly, until stop
// closes or the game is over. What came of a move is the ledger's to
// keep: the store confirmed it or not.
func playUntil(ctx context.Context, stop <-chan struct{}, s *session) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		u, err := s.await(100*time.Millisecond, func(u Update) bool {
			var v tally.View
			_ = json.Unmarshal(u.View, &v)
			return len(v.Legal) > 0 || v.Over
		})
		if err != nil {
			continue // not its turn yet
		}
		v := s.view()
		if v.Over {
			return
		}
		time.Sleep(30 * time.Millisecond) // a fast player's pace
		raw, _ := json.Marshal(pick(v.Legal))
		_ = s.c.Move(ctx, raw)
		_, _ = s.await(100*time.Millisecond, func(n Update) bool { return n.Version != u.Version })
	}
}
