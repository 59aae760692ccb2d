package room

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/internal/waittest"
	"github.com/smokestack/smokestack/lobby/room/roomtest"
)

// The room's tests' helpers: a tiny game, the clock they move, and
// reading a connection's updates.

// timers is the clock the room's tests move (roomtest.Clock).
type timers = roomtest.Clock

func newTimers() *timers { return roomtest.NewClock() }

// t0 is the tests' fixed time.
var t0 = time.Date(2026, 3, 4, 5, 6, 7, 890000000, time.UTC)

// eventually waits for a state no channel announces (a store's contents,
// a subscriber list, the time a store keeps).
var eventually = waittest.Until

// latest waits for the connection's first update and returns the
// newest it holds.
func latest(t *testing.T, c *Conn) Update {
	t.Helper()
	return roomtest.Newest(t, c.Updates())
}

func view(t *testing.T, u Update) tally.View {
	t.Helper()
	var v tally.View
	if err := json.Unmarshal(u.View, &v); err != nil {
		t.Fatalf("view: %v (%s)", err, u.View)
	}
	return v
}

// tallyGame is the game the lobby's tests play: a tiny one that shows rooms
// run any ruleset without knowing it.
func tallyGame() Game { return Game{Rules: tally.Rules, Bots: tally.Bots()} }

func pick(legal []tally.Move) tally.Move { return legal[0] }

// The people at the tests' tables.
var (
	ann = Player{ID: "key:ann", Name: "ann"}
	ben = Player{ID: "key:ben", Name: "ben"}
	cal = Player{ID: "key:cal", Name: "cal"}
)
