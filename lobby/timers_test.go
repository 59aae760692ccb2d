package lobby

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/room/roomtest"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// timers is the clock the lobby's tests move (roomtest.Clock).
type timers struct{ *roomtest.Clock }

func newTimers() *timers { return &timers{roomtest.NewClock()} }

// advance moves the clock on by d and runs the timers that came due.
func (c *timers) advance(d time.Duration) { c.Advance(d) }

// tallyTable is a room of tally played by people on one lobby with a clock
// the test moves.
type tallyTable struct {
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
func newTable(t *testing.T, cfg Config, o CreateOptions, people ...Player) *tallyTable {
	t.Helper()
	tb := &tallyTable{t: t, clk: newTimers(), conns: map[string]*Conn{}}
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

func (tb *tallyTable) join(p Player) *Conn {
	tb.t.Helper()
	c, err := tb.l.Join(context.Background(), tb.code, p)
	if err != nil {
		tb.t.Fatalf("%s joins: %v", p.Name, err)
	}
	tb.conns[p.Name] = c
	return c
}

func (tb *tallyTable) leave(p Player) {
	tb.conns[p.Name].Close()
	delete(tb.conns, p.Name)
}

// await waits, on a connection held open for it, for a room info that
// cond holds for; the rooms' timers run in goroutines of their own.
func (tb *tallyTable) await(p Player, what string, cond func(RoomInfo) bool) Update {
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

func (tb *tallyTable) move(p Player, kind string) error {
	return tb.conns[p.Name].Move(context.Background(), json.RawMessage(`{"kind":"`+kind+`"}`))
}

func botAt(seat int) func(RoomInfo) bool {
	return func(i RoomInfo) bool { return i.Seats[seat].Bot == "first" }
}
