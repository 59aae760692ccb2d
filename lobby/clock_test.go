package lobby

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
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

// TestTurnClock: the clock part alone. A turn begins when a seat starts
// acting and lasts while it acts; a seat joining those acting, or a new
// round, begins every acting seat's turn anew; a person back from a bot
// starts afresh; and a seat runs out only while a person in another seat
// waits.
func TestTurnClock(t *testing.T) {
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)
	m := store.Meta{Seats: []store.Seat{{Player: "key:ann"}, {Player: "key:ben"}, {Bot: "first"}}, Clock: time.Minute}
	var c turnClock
	c.start(m.Clock, nil, engine.Status{Round: 1, Acting: []int{0}}, t0)
	if d, ok := c.deadline(0, &m); !ok || !d.Equal(t0.Add(time.Minute)) {
		t.Fatalf("ann's deadline %v, %v", d, ok)
	}
	if _, ok := c.deadline(1, &m); ok {
		t.Fatal("ben, not acting, has a deadline")
	}
	c.note(engine.Status{Round: 1, Acting: []int{0, 1, 2}}, t0.Add(10*time.Second))
	if d, _ := c.deadline(0, &m); !d.Equal(t0.Add(70 * time.Second)) {
		t.Fatalf("ann's turn did not begin anew as others joined: %v", d)
	}
	if _, ok := c.deadline(2, &m); ok {
		t.Fatal("a bot's seat has a deadline")
	}
	c.note(engine.Status{Round: 1, Acting: []int{0}}, t0.Add(20*time.Second))
	if d, _ := c.deadline(0, &m); !d.Equal(t0.Add(70 * time.Second)) {
		t.Fatalf("ann's turn began anew as others finished: %v", d)
	}
	m.Seats[0].Since = t0.Add(30 * time.Second) // back from a bot
	if d, _ := c.deadline(0, &m); !d.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("ann back from a bot: deadline %v", d)
	}
	if at, ok := c.next(&m, t0.Add(80*time.Second)); !ok || !at.Equal(t0.Add(90*time.Second)) {
		t.Fatalf("the next deadline %v, %v", at, ok)
	}
	late := t0.Add(2 * time.Minute)
	nobody := func(int) bool { return false }
	benHere := func(seat int) bool { return seat == 1 }
	if c.outOfTime(0, &m, late, nobody) {
		t.Fatal("ann ran out with nobody waiting")
	}
	if !c.outOfTime(0, &m, late, benHere) {
		t.Fatal("ann did not run out with ben waiting")
	}
	if _, ok := c.next(&m, late); ok {
		t.Fatal("a deadline to come after every one passed")
	}
	c.note(engine.Status{Round: 2, Acting: []int{0}}, late)
	if d, _ := c.deadline(0, &m); !d.Equal(late.Add(time.Minute)) {
		t.Fatalf("a new round did not begin ann's turn anew: %v", d)
	}
	m.Over = true
	if _, ok := c.deadline(0, &m); ok {
		t.Fatal("a deadline in a game that is over")
	}
	var off turnClock
	off.start(0, nil, engine.Status{Acting: []int{0}}, t0)
	if _, ok := off.deadline(0, &store.Meta{Seats: m.Seats}); ok || len(off.since) != 0 {
		t.Fatal("a room without a clock keeps turns")
	}
}
