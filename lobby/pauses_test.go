package lobby

import (
	"context"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/waittest"
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
		return len(tb.l.pauses.Downtimes()) == 1
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
