package lobby

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// TestVotesHandAwaySeatToBot: cal leaves a table of three. Before the
// grace period is out nobody may hand his seat over; after it, ann's vote
// alone is one of two, and ben's completes it: the game's default bot
// plays cal's seat, until cal joins again and takes it back.
func TestVotesHandAwaySeatToBot(t *testing.T) {
	ctx := context.Background()
	tb := newTable(t, Config{}, CreateOptions{Seats: 3}, ann, ben, cal)
	tb.leave(cal)
	left := tb.clk.Now()
	tb.await(ann, "cal away", func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() })

	tb.clk.advance(90 * time.Second)
	if _, err := tb.l.Vote(ctx, tb.code, ann, 2); err == nil || !strings.Contains(err.Error(), "cal has been away 1:30: the seat can go to a bot in 0:30") {
		t.Fatalf("vote inside the grace period: %v", err)
	}
	tb.clk.advance(30 * time.Second)
	u := tb.await(ben, "cal's countdown", func(i RoomInfo) bool { return !i.Seats[2].VotesFrom.IsZero() })
	if s := u.Room.Seats[2]; !s.VotesFrom.Equal(left.Add(DefaultGrace)) || !s.BotAt.Equal(left.Add(2*DefaultGrace)) || s.VotesNeeded != 2 {
		t.Fatalf("cal's seat shows %+v; left at %v", s, left)
	}
	if _, err := tb.l.Vote(ctx, tb.code, cal, 0); err == nil {
		t.Fatal("cal, away, voted")
	}
	if _, err := tb.l.Vote(ctx, tb.code, ann, 1); err == nil || !strings.Contains(err.Error(), "ben is still playing") {
		t.Fatalf("vote on a player at the table: %v", err)
	}
	res, err := tb.l.Vote(ctx, tb.code, ann, 2)
	if err != nil || res.HandedOver || res.Votes != 1 || res.Needed != 2 {
		t.Fatalf("ann's vote: %+v, %v", res, err)
	}
	// Voting twice counts once.
	if res, err := tb.l.Vote(ctx, tb.code, ann, 2); err != nil || res.Votes != 1 {
		t.Fatalf("ann's second vote: %+v, %v", res, err)
	}
	tb.await(ben, "ann's vote", func(i RoomInfo) bool { return slices.Equal(i.Seats[2].Votes, []int{0}) })
	res, err = tb.l.Vote(ctx, tb.code, ben, 2)
	if err != nil || !res.HandedOver || res.Bot != "first" {
		t.Fatalf("ben's vote: %+v, %v", res, err)
	}
	tb.await(ann, "the bot in cal's seat", botAt(2))

	// The bot plays cal's turns: ann and ben take theirs, and the round
	// comes back to ann only if the bot took cal's.
	for _, p := range []Player{ann, ben} {
		if err := tb.move(p, "take"); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
	}
	u = latest(t, tb.conns["ann"])
	for u.Version < 3 {
		u = next(t, tb.conns["ann"])
	}
	if v := view(t, u); v.HandSizes[2] != 1 {
		t.Fatalf("the bot did not take cal's card: hands %v", v.HandSizes)
	}

	// Cal comes back with his key and takes the seat back.
	c := tb.join(cal)
	if c.Seat() != 2 {
		t.Fatalf("cal came back to seat %d", c.Seat())
	}
	tb.await(ann, "cal back", func(i RoomInfo) bool { s := i.Seats[2]; return s.Bot == "" && s.Connected })
}

// TestHandoverByTime: nobody votes, and a second grace period after the
// votes opened the seat goes to the bot by itself, from the room's timer.
// A table where nobody is left waits for nobody: no handover there.
func TestHandoverByTime(t *testing.T) {
	tb := newTable(t, Config{}, CreateOptions{Seats: 3, Grace: time.Minute}, ann, ben, cal)
	tb.leave(cal)
	tb.await(ann, "cal away", func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() })
	tb.clk.advance(119 * time.Second)
	if u := latest(t, tb.conns["ann"]); u.Room.Seats[2].Bot != "" {
		t.Fatalf("handed over before its time: %+v", u.Room.Seats[2])
	}
	tb.clk.advance(time.Second)
	tb.await(ann, "the bot in cal's seat", botAt(2))

	empty := newTable(t, Config{}, CreateOptions{Seats: 2, Grace: time.Minute}, ann, ben)
	empty.leave(ben)
	empty.leave(ann)
	empty.clk.advance(10 * time.Minute)
	info, err := empty.l.Info(context.Background(), empty.code, ann)
	if err != nil {
		t.Fatal(err)
	}
	if info.Seats[0].Bot != "" || info.Seats[1].Bot != "" {
		t.Fatalf("an empty table handed seats to bots: %+v", info.Seats)
	}
	// Ann comes back to find ben long gone: his seat goes to the bot now.
	empty.join(ann)
	empty.await(ann, "the bot in ben's seat", botAt(1))
}

// TestVotesLastOneAbsence: a vote is for one absence. Cal comes back and
// leaves again, and ann's vote from before no longer counts.
func TestVotesLastOneAbsence(t *testing.T) {
	ctx := context.Background()
	tb := newTable(t, Config{}, CreateOptions{Seats: 3}, ann, ben, cal)
	tb.leave(cal)
	tb.await(ann, "cal away", func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() })
	tb.clk.advance(DefaultGrace)
	if res, err := tb.l.Vote(ctx, tb.code, ann, 2); err != nil || res.Votes != 1 {
		t.Fatalf("ann's vote: %+v, %v", res, err)
	}
	tb.join(cal)
	tb.clk.advance(time.Second)
	tb.leave(cal)
	tb.clk.advance(DefaultGrace)
	u := tb.await(ben, "cal away again", func(i RoomInfo) bool { return !i.Seats[2].VotesFrom.IsZero() })
	if v := u.Room.Seats[2].Votes; len(v) != 0 {
		t.Fatalf("votes from cal's last absence count: %v", v)
	}
	if res, err := tb.l.Vote(ctx, tb.code, ben, 2); err != nil || res.HandedOver || res.Votes != 1 {
		t.Fatalf("ben's vote: %+v, %v", res, err)
	}
}

// TestHostPowersPass: while the host is away the first player at the
// table has the host's powers (bots in free seats, ending the game), and
// gives them back when the host returns.
func TestHostPowersPass(t *testing.T) {
	ctx := context.Background()
	tb := newTable(t, Config{}, CreateOptions{Seats: 3}, ann, ben)
	if err := tb.l.AddBot(ctx, tb.code, ben, 2, "first"); err == nil {
		t.Fatal("ben seated a bot while ann, the host, is here")
	}
	tb.leave(ann)
	u := tb.await(ben, "ben standing in", func(i RoomInfo) bool { return i.HostSeat == 1 })
	if !u.Room.IsHost(ben.ID) || !u.Room.IsHost(ann.ID) {
		t.Fatalf("host powers with ann away: ben %v, ann %v", u.Room.IsHost(ben.ID), u.Room.IsHost(ann.ID))
	}
	if err := tb.l.AddBot(ctx, tb.code, ben, 2, "first"); err != nil {
		t.Fatalf("ben, standing in, seats a bot: %v", err)
	}
	tb.await(ben, "the game", func(i RoomInfo) bool { return i.Started })
	tb.join(ann)
	u = tb.await(ben, "ann back", func(i RoomInfo) bool { return i.HostSeat == 0 })
	if u.Room.IsHost(ben.ID) {
		t.Fatal("ben kept the host's powers with ann back")
	}
	if err := tb.l.End(ctx, tb.code, ben); err == nil {
		t.Fatal("ben ended the game with ann, the host, here")
	}
	tb.leave(ann)
	tb.await(ben, "ben standing in again", func(i RoomInfo) bool { return i.HostSeat == 1 })
	if err := tb.l.End(ctx, tb.code, ben); err != nil {
		t.Fatalf("ben, standing in, ends the game: %v", err)
	}
	tb.await(ben, "the end", func(i RoomInfo) bool { return i.Over })
}

// TestRedisVotesAcrossInstances: ann plays through instance a, ben
// through b, and cal, through b, leaves. Ann's vote on a is stored with
// the room: b shows it, and ben's vote on b completes the table's, so the
// bot takes cal's seat on both.
func TestRedisVotesAcrossInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisTable(t)
	g.calLeaves()
	g.clk.advance(DefaultGrace)
	res, err := g.a.l.Vote(ctx, g.a.code, ann, 2)
	if err != nil || res.HandedOver || res.Votes != 1 || res.Needed != 2 {
		t.Fatalf("ann's vote on a: %+v, %v", res, err)
	}
	g.b.await(ben, "ann's vote on b", func(i RoomInfo) bool { return slices.Equal(i.Seats[2].Votes, []int{0}) })
	res, err = g.b.l.Vote(ctx, g.b.code, ben, 2)
	if err != nil || !res.HandedOver || res.Votes != 2 {
		t.Fatalf("ben's vote on b: %+v, %v", res, err)
	}
	g.a.await(ann, "the bot in cal's seat on a", botAt(2))
}

// TestRedisHandoverOnce: nobody votes; both instances' timers go off at
// the same moment, and the compare-and-set lets one handover through.
func TestRedisHandoverOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisTable(t)
	g.calLeaves()
	code, _, _ := ParseInvite(g.a.code)
	before, _, err := g.store.Load(ctx, code, 0)
	if err != nil {
		t.Fatal(err)
	}
	g.clk.advance(2 * DefaultGrace)
	g.a.await(ann, "the bot in cal's seat on a", botAt(2))
	g.b.await(ben, "the bot in cal's seat on b", botAt(2))
	after, _, err := g.store.Load(ctx, code, 0)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version+1 {
		t.Fatalf("the handover took metadata versions %d to %d: more than one write", before.Version, after.Version)
	}
}

// redisTable is a room of three on two instances sharing a real Redis and
// a clock the test moves: ann on a; ben and cal on b.
type redisTable struct {
	clk   *timers
	a, b  *tallyTable
	store *redisstore.Store
}

func newRedisTable(t *testing.T) *redisTable {
	t.Helper()
	r := redistest.Start(t)
	clk := newTimers()
	g := &redisTable{clk: clk, store: openRedis(t, r)}
	on := func() *tallyTable {
		// A presence TTL far longer than the clock's moves: claims must
		// not lapse because the test skipped two minutes.
		l := New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Now: clk.Now, AfterFunc: clk.AfterFunc, PresenceTTL: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); l.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		return &tallyTable{t: t, clk: clk, l: l, conns: map[string]*Conn{}}
	}
	g.a, g.b = on(), on()
	m, err := g.a.l.Create(context.Background(), ann, CreateOptions{Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	g.a.code, g.b.code = m.Invite(), m.Invite()
	g.a.join(ann)
	g.b.join(ben)
	g.b.join(cal)
	g.a.await(ann, "everyone at the table", func(i RoomInfo) bool {
		return i.Started && i.Seats[1].Connected && i.Seats[2].Connected
	})
	return g
}

// calLeaves has cal leave, and waits until both instances show him away.
func (g *redisTable) calLeaves() {
	g.b.leave(cal)
	away := func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() }
	g.a.await(ann, "cal away", away)
	g.b.await(ben, "cal away", away)
}
