package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// clusterInstance is one smokestack server on the Redis Cluster c.
func clusterInstance(t *testing.T, c *redistest.Cluster) *instance {
	t.Helper()
	s, err := redisstore.OpenCluster(context.Background(), c.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return startInstance(t, s)
}

// TestRedisClusterPlayOut: two instances on a Redis Cluster play a game
// to its end, each hearing the other's moves on the room's sharded
// channel.
func TestRedisClusterPlayOut(t *testing.T) {
	c := redistest.StartCluster(t)
	g := &redisGame{a: clusterInstance(t, c), b: clusterInstance(t, c)}
	g.seat(t, 7)
	g.play(t, -1)
	g.sameEverywhere(t)
	if !g.watchers[0].view().Over {
		t.Fatal("game not over")
	}
}

// played is a move as its player was answered: acknowledged, or refused
// with "it may still count" (unconfirmed).
type played struct {
	seat int
	move string
}

// TestRedisClusterPrimaryKilled: the primary serving a room's slot is
// killed (SIGKILL) mid-game with moves flowing from two instances. Its
// replica takes over; the killed node, restarted as a supervisor would,
// comes back as the new primary's replica. No acknowledged move is lost
// or played twice, a move refused as "nothing was played" is not in the
// log, every session ends showing the log's game, and the time from the
// kill to the first move accepted again is logged.
func TestRedisClusterPrimaryKilled(t *testing.T) {
	c := redistest.StartCluster(t)
	g := &redisGame{a: clusterInstance(t, c), b: clusterInstance(t, c)}
	g.seat(t, 5)
	g.play(t, 8)
	acked, maybe := map[int]played{}, map[int]played{}
	primary := c.Primary("smokestack:{" + g.code + "}:moves")
	primary.Kill()
	killed := time.Now()
	restarted := make(chan struct{})
	go func() { // the supervisor: once the replica took over, restart it
		defer close(restarted)
		for c.Primary("smokestack:{"+g.code+"}:moves") == primary {
			time.Sleep(20 * time.Millisecond) // polling the cluster's view
		}
		t.Logf("replica promoted %s after the kill", time.Since(killed).Round(time.Millisecond))
		c.Restart(primary)
	}()
	var back time.Duration
	for range 12 {
		at, p, err := g.moveOnce(t)
		switch {
		case err == nil:
			acked[at] = p
			if back == 0 {
				back = time.Since(killed)
			}
		case errors.Is(err, room.ErrUnconfirmed):
			maybe[at] = p
		case !errors.Is(err, room.ErrNotPlayed) && !errors.Is(err, ErrUnavailable):
			t.Fatalf("move %d: %v", at, err)
		}
		if g.watchers[0].view().Over {
			break
		}
	}
	if back == 0 {
		t.Fatal("no move accepted after the primary was killed")
	}
	t.Logf("kill to the first move accepted again: %s (node timeout %s)", back.Round(time.Millisecond), redistest.NodeTimeout)
	<-restarted
	if err := c.WaitHealthy(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	moves := g.truth(t)
	for at, p := range acked {
		if at >= len(moves) || moves[at].Seat != p.seat || string(moves[at].Move) != p.move {
			t.Fatalf("acknowledged move %d (%s by seat %d) lost: the log holds %d moves", at, p.move, p.seat, len(moves))
		}
	}
	for at := 8; at < len(moves); at++ {
		if _, ok := acked[at]; ok {
			continue
		}
		if p, ok := maybe[at]; !ok || moves[at].Seat != p.seat || string(moves[at].Move) != p.move {
			t.Fatalf("move %d in the log (%s) was not acknowledged nor told it may count", at, moves[at].Move)
		}
	}
	g.moves = len(moves)
	g.play(t, -1)
	g.sameEverywhere(t)
	t.Logf("%d moves acknowledged, %d unconfirmed during the failover", len(acked), len(maybe))
}

// moveOnce makes the next move of the seat whose turn it is, once, from
// the game as the store holds it, and returns the move's number, what
// was sent and how it was answered.
func (g *redisGame) moveOnce(t *testing.T) (int, played, error) {
	t.Helper()
	g.moves = len(g.truth(t))
	g.synced(t, g.moves)
	seat := 0
	if len(g.seats[0].view().Legal) == 0 {
		seat = 1
	}
	s := g.seats[seat]
	raw, _ := json.Marshal(pick(s.view().Legal))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return g.moves, played{seat: seat, move: string(raw)}, s.c.Move(ctx, raw)
}

// truth is the room's log as the store holds it, read again until the
// cluster answers.
func (g *redisGame) truth(t *testing.T) []store.Record {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, moves, err := g.a.store.Load(context.Background(), g.code, 0)
		if err == nil {
			return moves
		}
		if time.Now().After(deadline) {
			t.Fatalf("the room's log unreadable for 30s: %v", err)
		}
		time.Sleep(50 * time.Millisecond) // the cluster is failing over
	}
}

// TestRedisShardedNews measures what sharded channels save: rooms are
// spread over two instances, each room's players on one of them, and
// while the rooms play, instance a hears nothing of b's rooms. Before,
// on one channel for all, it heard every change of every room. It logs
// both counts.
func TestRedisShardedNews(t *testing.T) {
	ctx := context.Background()
	r := redistest.StartOwn(t, "other rooms would be announced too")
	a, b := newInstance(t, r), newInstance(t, r)
	const rooms, moves = 8, 6
	var tables [][]*session
	var bRooms []string
	for i := range rooms {
		in := []*instance{a, b}[i%2]
		tables = append(tables, seatBoth(t, in, uint64(i+1)))
		if in == b {
			bRooms = append(bRooms, tables[i][0].c.Code())
		}
	}
	// What one channel for all would have carried of b's rooms: every
	// change made in them, counted by a listener on their channels.
	rdb := rawRedis(t, r)
	all := rdb.SSubscribe(ctx)
	defer all.Close()
	for _, code := range append(bRooms, "{index}") {
		if err := all.SSubscribe(ctx, "smokestack:"+roomTag(code)+":changes"); err != nil {
			t.Fatal(err)
		}
		if _, err := all.Receive(ctx); err != nil { // subscribed
			t.Fatal(err)
		}
	}
	heardBefore := a.store.Heard()
	for n := range moves {
		for _, table := range tables {
			moveNext(t, table, n)
		}
	}
	for _, table := range tables { // every change is out
		for _, s := range table {
			if _, err := s.await(10*time.Second, atVersion(moves)); err != nil {
				t.Fatal(err)
			}
		}
	}
	oneChannel, index := 0, 0
	for {
		rctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		msg, err := all.ReceiveMessage(rctx)
		cancel()
		if err != nil {
			break // quiet: all counted
		}
		if msg.Channel == indexChannel {
			index++
		} else {
			oneChannel++
		}
	}
	heard := a.store.Heard() - heardBefore
	if oneChannel < len(bRooms)*moves {
		t.Fatalf("b's rooms announced %d changes, want at least %d", oneChannel, len(bRooms)*moves)
	}
	if heard > int64(index) {
		t.Fatalf("a heard %d announcements while b's rooms played, more than the %d on the index", heard, index)
	}
	t.Logf("while %d rooms on each of 2 instances played %d moves each, a heard %d announcements from b; one channel for all: %d (a heard %d in all, b's rooms made and seated, on the index)",
		rooms/2, moves, heard, oneChannel, a.store.Heard())
}

// roomTag is a room code's hash tag, or tag itself when it has braces.
func roomTag(code string) string {
	if code[0] == '{' {
		return code
	}
	return "{" + code + "}"
}

// seatBoth makes a public room on in and seats two players there, both
// through in, and waits for the game to start.
func seatBoth(t *testing.T, in *instance, seed uint64) []*session {
	t.Helper()
	ctx := context.Background()
	host := Player{ID: "key:h" + strconv.FormatUint(seed, 10), Name: "h" + strconv.FormatUint(seed, 10)}
	guest := Player{ID: "key:g" + strconv.FormatUint(seed, 10), Name: "g" + strconv.FormatUint(seed, 10)}
	meta, err := in.lobby.Create(ctx, host, CreateOptions{Seats: 2, Public: true, Seed: seed, HasSeed: true})
	if err != nil {
		t.Fatal(err)
	}
	var table []*session
	for _, p := range []Player{host, guest} {
		c, err := in.lobby.Join(ctx, meta.Code, p)
		if err != nil {
			t.Fatal(err)
		}
		table = append(table, &session{name: p.Name, c: c})
	}
	for _, s := range table {
		if _, err := s.await(10*time.Second, func(u Update) bool { return u.Room.Started && u.View != nil }); err != nil {
			t.Fatal(err)
		}
	}
	return table
}

// moveNext plays move n of table, by whichever seat may move once every
// session there shows move n-1.
func moveNext(t *testing.T, table []*session, n int) {
	t.Helper()
	for _, s := range table {
		if _, err := s.await(10*time.Second, atVersion(n)); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range table {
		if v := s.view(); len(v.Legal) > 0 {
			raw, _ := json.Marshal(pick(v.Legal))
			if err := s.c.Move(context.Background(), raw); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("no seat may move")
}
