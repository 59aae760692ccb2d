package lobby

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
)

// timers is a clock the test moves, with the rooms' timers on it
// (Config.Now, Config.AfterFunc): a timer due now runs at once in its own
// goroutine, as the room may hold its lock when it sets one; later ones
// run, in the test's goroutine, when advance passes their time.
type timers struct {
	mu      sync.Mutex
	now     time.Time
	pending []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newTimers() *timers { return &timers{now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)} }

func (c *timers) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *timers) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.pending = append(c.pending, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// advance moves the clock on by d and runs the timers that came due, in
// the order of their times.
func (c *timers) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	c.pending = slices.DeleteFunc(c.pending, func(t *fakeTimer) bool {
		if t.stopped || !t.at.After(c.now) {
			if !t.stopped {
				t.stopped = true
				due = append(due, t)
			}
			return true
		}
		return false
	})
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *fakeTimer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.f()
	}
}

// table is a room of tally played by people on one lobby with a clock
// the test moves.
type table struct {
	t     *testing.T
	clk   *timers
	l     *Lobby
	code  string
	conns map[string]*Conn
}

var (
	ann = Player{ID: "key:ann", Name: "ann"}
	ben = Player{ID: "key:ben", Name: "ben"}
	cal = Player{ID: "key:cal", Name: "cal"}
)

// newTable makes a room of o's seats and seats people in it, in order.
func newTable(t *testing.T, cfg Config, o CreateOptions, people ...Player) *table {
	t.Helper()
	tb := &table{t: t, clk: newTimers(), conns: map[string]*Conn{}}
	if cfg.Store == nil {
		cfg.Store = mem.New()
	}
	cfg.Games, cfg.Now, cfg.AfterFunc = []Game{tallyGame()}, tb.clk.Now, tb.clk.AfterFunc
	tb.l = New(cfg)
	o.Seed, o.HasSeed = 3, true
	m, err := tb.l.Create(context.Background(), people[0], o)
	if err != nil {
		t.Fatal(err)
	}
	tb.code = m.Invite()
	for _, p := range people {
		tb.join(p)
	}
	return tb
}

func (tb *table) join(p Player) *Conn {
	tb.t.Helper()
	c, err := tb.l.Join(context.Background(), tb.code, p)
	if err != nil {
		tb.t.Fatalf("%s joins: %v", p.Name, err)
	}
	tb.conns[p.Name] = c
	return c
}

func (tb *table) leave(p Player) {
	tb.conns[p.Name].Close()
	delete(tb.conns, p.Name)
}

// await waits, on a connection held open for it, for a room info that
// cond holds for; the rooms' timers run in goroutines of their own.
func (tb *table) await(p Player, what string, cond func(RoomInfo) bool) Update {
	tb.t.Helper()
	c := tb.conns[p.Name]
	deadline := time.After(10 * time.Second)
	u := latest(tb.t, c)
	for !cond(u.Room) {
		select {
		case u = <-c.Updates():
			seen.Store(c, u)
		case <-deadline:
			tb.t.Fatalf("%s: %s did not come: room %+v", p.Name, what, u.Room)
		}
	}
	return u
}

func (tb *table) move(p Player, kind string) error {
	return tb.conns[p.Name].Move(context.Background(), json.RawMessage(`{"kind":"`+kind+`"}`))
}

func botAt(seat int) func(RoomInfo) bool {
	return func(i RoomInfo) bool { return i.Seats[seat].Bot == "first" }
}

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

// TestClockBotPlaysOneTurn: ann runs out of time on her turn. She may not
// move then, the default bot plays her turn for her, and she plays her
// next turn herself with a fresh clock.
func TestClockBotPlaysOneTurn(t *testing.T) {
	tb := newTable(t, Config{BotDelay: 10 * time.Second}, CreateOptions{Seats: 2, Clock: 90 * time.Second}, ann, ben)
	start := tb.clk.Now()
	u := tb.await(ann, "ann's clock", func(i RoomInfo) bool { return !i.Seats[0].Deadline.IsZero() })
	if d := u.Room.Seats[0].Deadline; !d.Equal(start.Add(90*time.Second)) || u.Room.ClockSeconds != 90 {
		t.Fatalf("ann's deadline %v, clock %ds; the game started at %v", d, u.Room.ClockSeconds, start)
	}
	if !u.Room.Seats[1].Deadline.IsZero() {
		t.Fatalf("ben, not acting, has a deadline %v", u.Room.Seats[1].Deadline)
	}
	tb.clk.advance(90 * time.Second)
	tb.await(ann, "ann out of time", func(i RoomInfo) bool { return i.Seats[0].OutOfTime })
	if err := tb.move(ann, "take"); err == nil || !strings.Contains(err.Error(), "your time for this turn ran out") {
		t.Fatalf("ann moved out of time: %v", err)
	}
	tb.clk.advance(10 * time.Second) // the bot's pause
	u = tb.await(ann, "the bot's move for ann", func(i RoomInfo) bool { return slices.Equal(i.Acting, []int{1}) })
	if v := view(t, u); len(v.Hand) != 1 || u.Version != 1 {
		t.Fatalf("after the bot's move: hand %v, version %d", v.Hand, u.Version)
	}
	if s := u.Room.Seats[0]; s.Bot != "" || s.OutOfTime {
		t.Fatalf("ann's seat after her turn: %+v", s)
	}
	// Ben's clock began with the bot's move.
	if d := u.Room.Seats[1].Deadline; !d.Equal(tb.clk.Now().Add(90 * time.Second)) {
		t.Fatalf("ben's deadline %v at %v", d, tb.clk.Now())
	}
	if err := tb.move(ben, "take"); err != nil {
		t.Fatal(err)
	}
	u = tb.await(ann, "ann's next turn", func(i RoomInfo) bool { return len(i.Acting) == 2 })
	if s := u.Room.Seats[0]; s.OutOfTime || !s.Deadline.Equal(tb.clk.Now().Add(90*time.Second)) {
		t.Fatalf("ann's next turn: %+v", s)
	}
	if err := tb.move(ann, "done"); err != nil {
		t.Fatalf("ann plays her next turn herself: %v", err)
	}
}

// TestClockDeadlinesSurviveReload: deadlines are reckoned from the stored
// moves' times, so a server that loads the room afresh from the store
// shows the very same deadline.
func TestClockDeadlinesSurviveReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rooms.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTable(t, Config{Store: st}, CreateOptions{Seats: 2, Clock: time.Minute}, ann, ben)
	tb.clk.advance(20 * time.Second)
	if err := tb.move(ann, "take"); err != nil {
		t.Fatal(err)
	}
	tb.clk.advance(15 * time.Second)
	u := tb.await(ann, "ben's clock", func(i RoomInfo) bool { return !i.Seats[1].Deadline.IsZero() })
	want := tb.clk.Now().Add(-15 * time.Second).Add(time.Minute)
	if d := u.Room.Seats[1].Deadline; !d.Equal(want) {
		t.Fatalf("ben's deadline %v, want %v", d, want)
	}
	tb.leave(ann)
	tb.leave(ben)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l := New(Config{Store: st, Games: []Game{tallyGame()}, Now: tb.clk.Now, AfterFunc: tb.clk.AfterFunc, BotDelay: 10 * time.Second})
	info, err := l.Info(context.Background(), tb.code, ann)
	if err != nil {
		t.Fatal(err)
	}
	if d := info.Seats[1].Deadline; !d.Equal(want) {
		t.Fatalf("after a reload ben's deadline is %v, want %v", d, want)
	}
	// It goes off there: ann comes back and waits, ben's clock runs out,
	// and after its pause the bot plays ben's turn.
	c, err := l.Join(context.Background(), tb.code, ann)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tb.clk.advance(45 * time.Second)
	if u := latest(t, c); u.Version != 1 || !u.Room.Seats[1].OutOfTime {
		t.Fatalf("ben's clock ran out with ann waiting: version %d, seat %+v", u.Version, u.Room.Seats[1])
	}
	tb.clk.advance(10 * time.Second) // the bot's pause
	for u := latest(t, c); u.Version != 2; u = next(t, c) {
	}
}

// TestClockWaitsForNobody: at a table everyone left, a clock that runs out
// plays no turn; the player coming back alone finds their turn theirs,
// and once another is there too, the bot plays it.
func TestClockWaitsForNobody(t *testing.T) {
	tb := newTable(t, Config{}, CreateOptions{Seats: 2, Clock: time.Minute}, ann, ben)
	tb.leave(ann)
	tb.leave(ben)
	tb.clk.advance(2 * time.Minute)
	c := tb.join(ann)
	if u := latest(t, c); u.Version != 0 || u.Room.Seats[0].OutOfTime {
		t.Fatalf("ann, back alone after her clock ran out: version %d, seat %+v", u.Version, u.Room.Seats[0])
	}
	tb.join(ben)
	tb.await(ann, "the bot's move for ann", func(i RoomInfo) bool { return slices.Equal(i.Acting, []int{1}) })
}

// TestRedisVotesAcrossInstances: ann plays through instance a, ben
// through b, and cal, through b, leaves. Ann's vote on a is stored with
// the room: b shows it, and ben's vote on b completes the table's, so the
// bot takes cal's seat on both.
func TestRedisVotesAcrossInstances(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g := newRedisTable(t)
	g.b.leave(cal)
	g.a.await(ann, "cal away", func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() })
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
	g.b.leave(cal)
	g.a.await(ann, "cal away", func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() })
	g.b.await(ben, "cal away", func(i RoomInfo) bool { return !i.Seats[2].AwaySince.IsZero() })
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
	a, b  *table
	store *redisstore.Store
}

func newRedisTable(t *testing.T) *redisTable {
	t.Helper()
	r := redistest.Start(t)
	clk := newTimers()
	g := &redisTable{clk: clk, store: openRedis(t, r)}
	on := func() *table {
		// A presence TTL far longer than the clock's moves: claims must
		// not lapse because the test skipped two minutes.
		l := New(Config{Store: openRedis(t, r), Games: []Game{tallyGame()}, Now: clk.Now, AfterFunc: clk.AfterFunc, PresenceTTL: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); l.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		return &table{t: t, clk: clk, l: l, conns: map[string]*Conn{}}
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
