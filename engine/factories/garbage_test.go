package factories

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/movetest"
)

// garbageValues replace a move's field: indexes and card numbers that
// name nothing.
var garbageValues = map[string][]any{
	"slot":     {999, -1, 4},
	"card":     {999, -1, 1 << 40},
	"discard":  {[]int{999}, []int{-1}, []int{999, 999}},
	"dice":     {[]int{999}, []int{-1}, []int{0, 0}},
	"opponent": {999, -1},
	"value":    {999, -1, 0},
	"values":   {[]int{999}, []int{0, 0, 0, 0, 0, 0}},
	"metal":    {-1, 999},
	"energy":   {-1, 999},
	"action":   {"fly"},
	"choice":   {"gold"},
	"row":      {"chairs"},
	"pay":      {"gold"},
}

// refusalGarbage are words that betray a refusal built from garbage
// instead of written for the player.
var refusalGarbage = []string{"unknown card", "unknown contractor", "%!", "<nil>", "index out of range"}

// TestGarbageMoveFields: every field of a move that names a card, a slot,
// a die or a seat, given a value that names nothing, is refused with a
// reason a player can read — never the name of a card that does not
// exist, never a panic. Each legal move of many positions is spoilt one
// field at a time, including fields its kind does not use. Under the race
// detector, which finds nothing to race in Rules, every 28th position
// instead of every 7th is spoilt (4,600 moves instead of 22,000).
func TestGarbageMoveFields(t *testing.T) {
	t.Parallel()
	every := 7
	if raceEnabled {
		every = 28
	}
	movetest.Spoil(t, Rules, []movetest.Game{{Seats: 1, Seed: 41}, {Seats: 3, Seed: 43}}, 400, every,
		garbageValues, refusalGarbage, 1000)
}

// TestHireUnknownDiscard is the refusal a player once met as "…needs a
// gear blueprint; unknown card has a".
func TestHireUnknownDiscard(t *testing.T) {
	rules := Rules
	state, err := rules.New(2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := rules.Status(state)
	_, _, err = rules.Apply(state, st.Acting[0], json.RawMessage(`{"kind":"hire","slot":0,"discard":[999]}`))
	if err == nil || !strings.Contains(err.Error(), "not in your hand") || strings.Contains(err.Error(), "unknown") {
		t.Fatalf("hire discarding card 999: %v", err)
	}
}
