package lobby

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/waittest"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// running runs l's background work until the test ends, or until the
// stop it returns is called (a clean shutdown).
func running(t *testing.T, l *Lobby) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Run(ctx)
	}()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// TestClockStandsStillWhileDown: the server stops with 45 s left on ben's
// turn and starts again ten minutes later. His clock resumes with the
// 45 s it had left, not run out; he plays his turn himself; a turn with
// less left than the reconnect window gets the window.
func TestClockStandsStillWhileDown(t *testing.T) {
	st := mem.New()
	cfg := Config{Store: st, BotDelay: 10 * time.Second, ReconnectWindow: 30 * time.Second}
	tb := newTable(t, cfg, CreateOptions{Seats: 2, Clock: time.Minute}, ann, ben)
	if err := tb.move(ann, "take"); err != nil {
		t.Fatal(err)
	}
	tb.clk.advance(15 * time.Second)
	tb.leave(ann)
	tb.leave(ben)
	// The server stops with 45 s left on ben's turn. Its last word in the
	// uptime account is written here rather than by a running Run: Run
	// says it every 2 s of real time, which the test's clock skips, so a
	// Run would have the 15 s above read as a downtime of its own, or
	// not, as the goroutines happen to be scheduled.
	if _, err := st.Alive(context.Background(), tb.clk.Now(), aliveStale); err != nil {
		t.Fatal(err)
	}

	tb.clk.advance(10 * time.Minute)
	cfg.Games, cfg.Now, cfg.AfterFunc = []Game{tallyGame()}, tb.clk.Now, tb.clk.AfterFunc
	tb.l = New(cfg)
	running(t, tb.l)
	waittest.Until(t, "the downtime known", func() bool {
		tb.l.pauses.mu.Lock()
		defer tb.l.pauses.mu.Unlock()
		return len(tb.l.pauses.down) == 1
	})
	back := tb.clk.Now()
	tb.join(ann)
	tb.join(ben)
	u := tb.await(ann, "ben's clock", func(i RoomInfo) bool { return !i.Seats[1].Deadline.IsZero() })
	if d := u.Room.Seats[1].Deadline; !d.Equal(back.Add(45 * time.Second)) {
		t.Fatalf("after the restart ben's deadline is %v, want 45 s after %v", d, back)
	}
	if u.Room.Seats[1].OutOfTime {
		t.Fatal("ben's clock ran out while the server was down")
	}
	tb.clk.advance(44 * time.Second)
	if err := tb.move(ben, "take"); err != nil {
		t.Fatalf("ben plays his turn with a second left: %v", err)
	}
}

// TestPausesAfter: a span of running time is pushed back by the
// downtimes within it, and ends no sooner than the reconnect window
// after one.
func TestPausesAfter(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	p := &pauses{window: time.Minute, known: make(chan struct{}), down: []store.Downtime{
		{From: t0.Add(-time.Hour), To: t0.Add(-50 * time.Minute)},
		{From: t0.Add(30 * time.Second), To: t0.Add(10 * time.Minute)},
		{From: t0.Add(2 * time.Hour), To: t0.Add(3 * time.Hour)},
	}}
	for _, c := range []struct {
		since time.Time
		d     time.Duration
		want  time.Time
	}{
		{t0, 20 * time.Second, t0.Add(20 * time.Second)},                  // over before the downtime
		{t0, 5 * time.Minute, t0.Add(14*time.Minute + 30*time.Second)},    // 4m30s left after it
		{t0, 40 * time.Second, t0.Add(11 * time.Minute)},                  // 10 s left: the window
		{t0.Add(time.Minute), time.Minute, t0.Add(11 * time.Minute)},      // began while down
		{t0.Add(20 * time.Minute), time.Minute, t0.Add(21 * time.Minute)}, // after it
	} {
		if got := p.after(c.since, c.d); !got.Equal(c.want) {
			t.Errorf("%v after %v: %v, want %v", c.d, c.since.Sub(t0), got.Sub(t0), c.want.Sub(t0))
		}
	}
}

// TestGraceStandsStillWhileDown: cal left 30 s into a 1-minute grace
// period, then the service was down ten minutes: the votes open a
// reconnect window after the restart, not at once, and a vote before
// then says how long is left.
func TestGraceStandsStillWhileDown(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	m := store.Meta{Host: ann.ID, Started: true, Grace: time.Minute,
		Seats: []store.Seat{{Player: ann.ID, Name: "ann"}, {Player: ben.ID, Name: "ben"}, {Player: cal.ID, Name: "cal"}}}
	seen := presence{started: t0}
	for seat := range 3 {
		seen.arrive(seat)
	}
	seen.leave(2, t0)
	run := &pauses{window: time.Minute, down: []store.Downtime{{From: t0.Add(30 * time.Second), To: t0.Add(10 * time.Minute)}}}
	v := seatVotes{meta: &m, seen: &seen, bot: "first", run: run}
	info := RoomInfo{Seats: []SeatInfo{{}, {}, {AwaySince: t0}}}
	v.addTo(&info, false)
	if s := info.Seats[2]; !s.VotesFrom.Equal(t0.Add(11*time.Minute)) || !s.BotAt.Equal(t0.Add(11*time.Minute+30*time.Second)) {
		t.Fatalf("cal's votes open at +%v and the bot comes at +%v; want +11m and +11m30s", s.VotesFrom.Sub(t0), s.BotAt.Sub(t0))
	}
	if _, _, err := v.cast(0, 2, t0.Add(10*time.Minute+20*time.Second)); err == nil || !strings.Contains(err.Error(), "in 0:40") {
		t.Fatalf("a vote 20 s after the restart: %v", err)
	}
	if at, _ := v.handoverAt(2); !at.Equal(t0.Add(11*time.Minute + 30*time.Second)) {
		t.Fatalf("cal's seat goes to the bot at +%v", at.Sub(t0))
	}
}
