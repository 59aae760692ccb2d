package room

import (
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby/store"
)

// TestTable: the game part alone. A move is judged on a copy: the table
// it was played on is unchanged until the room takes the copy, so a move
// the store refuses leaves nothing behind. A table before the game's
// start shows no view.
func TestTable(t *testing.T) {
	tb := table{rules: tally.Rules}
	if v, err := tb.view(0); v != nil || err != nil {
		t.Fatalf("a table before the start shows %s, %v", v, err)
	}
	m := store.Meta{Seats: make([]store.Seat, 2), Seed: 3}
	opening, err := tb.opening(&m)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.start(&m); err != nil {
		t.Fatal(err)
	}
	if tb.status.Round != opening.Round || len(tb.status.Acting) != 1 || tb.status.Acting[0] != 0 {
		t.Fatalf("the opening status %+v; opening says %+v", tb.status, opening)
	}
	before := encoded(t, tb.state)
	next, events, err := tb.play(0, json.RawMessage(`{"kind":"take"}`), true)
	if err != nil {
		t.Fatal(err)
	}
	if encoded(t, tb.state) != before || tb.moves != 0 {
		t.Fatal("playing a move changed the table it was played on")
	}
	if next.moves != 1 || len(events) == 0 || len(next.status.Acting) != 1 || next.status.Acting[0] != 1 {
		t.Fatalf("after seat 0's move: %d moves, events %v, acting %v", next.moves, events, next.status.Acting)
	}
	if _, _, err := next.play(0, json.RawMessage(`{"kind":"take"}`), true); err == nil {
		t.Fatal("seat 0 played out of turn")
	}
	unsettled, _, err := next.play(1, json.RawMessage(`{"kind":"take"}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if unsettled.status.Round != next.status.Round || len(unsettled.status.Acting) != 1 {
		t.Fatalf("a move played unsettled changed the status to %+v", unsettled.status)
	}
	if err := unsettled.settle(); err != nil || len(unsettled.status.Acting) != 2 {
		t.Fatalf("settled: %+v, %v", unsettled.status, err)
	}
	var v tally.View
	raw, err := unsettled.view(1)
	if err != nil || json.Unmarshal(raw, &v) != nil || len(v.Hand) != 1 {
		t.Fatalf("ben's view %s, %v", raw, err)
	}
	unsettled.clear()
	if unsettled.state != nil || unsettled.moves != 0 || unsettled.rules == nil {
		t.Fatalf("a cleared table %+v", unsettled)
	}
}

// encoded is a game's state as JSON, to tell whether it changed.
func encoded(t *testing.T, state any) string {
	t.Helper()
	raw, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
