package lobby

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store/bolt"
)

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
