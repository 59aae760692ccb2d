package room

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/tally"
)

// TestBotTimer: the timer part alone. It keeps one wake-up, the earliest
// asked for; a wake-up stopped or replaced that fires anyway is stale;
// nothing is set while a bot thinks; a bot's pause is counted from when
// it first could move; and each seat's bot is made once.
func TestBotTimer(t *testing.T) {
	clk := newTimers()
	now := clk.Now()
	var fired []int
	var bt botTimer
	fire := func(gen int) {
		if bt.fired(gen) {
			fired = append(fired, gen)
		}
	}
	bt.set(now.Add(time.Minute), true, now, clk.AfterFunc, fire)
	first := bt.gen
	bt.set(now.Add(2*time.Minute), true, now, clk.AfterFunc, fire) // later: the minute stands
	bt.set(now.Add(30*time.Second), true, now, clk.AfterFunc, fire)
	fire(first) // the replaced wake-up, had it fired before it was stopped
	clk.Advance(time.Minute)
	if len(fired) != 1 || fired[0] != bt.gen || bt.stop != nil {
		t.Fatalf("fired %v (timer at gen %d)", fired, bt.gen)
	}
	bt.set(now.Add(2*time.Minute), true, now, clk.AfterFunc, fire)
	bt.set(time.Time{}, false, now, clk.AfterFunc, fire) // nothing due
	clk.Advance(2 * time.Minute)
	if len(fired) != 1 {
		t.Fatalf("a stopped wake-up fired: %v", fired)
	}
	bt.thinking = true
	bt.set(now, true, now, clk.AfterFunc, fire)
	if bt.stop != nil {
		t.Fatal("a wake-up set while a bot thinks")
	}
	bt.thinking = false

	if at := bt.readyAt(now, 10*time.Second); !at.Equal(now.Add(10 * time.Second)) {
		t.Fatalf("ready at %v", at)
	}
	if at := bt.readyAt(now.Add(5*time.Second), 10*time.Second); !at.Equal(now.Add(10 * time.Second)) {
		t.Fatalf("asked again, the bot is ready at %v: its pause began again", at)
	}
	bt.moved()
	if !bt.ready.IsZero() {
		t.Fatal("a bot that moved still waits")
	}

	made := 0
	g := Game{Rules: tally.Rules, Bots: engine.Bots{Names: []string{"first", "second"}, New: func(string, uint64) (engine.Bot, error) {
		made++
		return func(json.RawMessage) (json.RawMessage, error) { return nil, nil }, nil
	}}}
	for range 2 {
		if _, err := bt.player(g, 1, "first", 7); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := bt.player(g, 1, "second", 7); err != nil || made != 2 {
		t.Fatalf("bots made %d times for two bots, %v", made, err)
	}
	if _, err := bt.player(g, 1, "third", 7); err == nil {
		t.Fatal("a bot the game does not have was made")
	}
	bt.forget(1)
	if _, err := bt.player(g, 1, "second", 7); err != nil || made != 3 {
		t.Fatalf("a seat taken back kept its bot: made %d, %v", made, err)
	}
}
