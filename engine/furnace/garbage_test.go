package furnace

import (
	"testing"

	"github.com/smokestack/smokestack/internal/movetest"
)

// garbageValues replace a move's field: cards, discs, counts and chain
// positions that name nothing.
var garbageValues = map[string][]any{
	"card":    {"zzz-99", "", 999, "start-9"},
	"extra":   {"zzz-99", 999},
	"disc":    {0, -1, 999, 5},
	"times":   {[]int{-1}, []int{999}, []int{999, 999}, []int{1, 1, 1}},
	"at":      {-1, 999},
	"neutral": {true},
	"again":   {true},
}

// refusalGarbage are words that betray a refusal built from garbage
// instead of written for the player.
var refusalGarbage = []string{"card 999", "card -", "%!", "<nil>", "index out of range", "unknown",
	"no card is not", "own no card", "Go struct", "a upgrade"}

// TestGarbageMoveFields: every field of a move that names a card, a disc,
// a count or a chain position, given a value that names nothing, is
// refused with a reason a player can read, never a panic. Each legal move
// of many positions is spoilt one field at a time, including fields its
// kind does not use. Under the race detector, which finds nothing to race
// in Rules, every 20th position instead of every 5th is spoilt.
func TestGarbageMoveFields(t *testing.T) {
	t.Parallel()
	every := 5
	if raceEnabled {
		every = 20
	}
	movetest.Spoil(t, Rules, []movetest.Game{{Seats: 2, Options: `{"capitalists":"on"}`, Seed: 52}, {Seats: 4, Options: `{"chain":"on"}`, Seed: 54}},
		300, every, garbageValues, refusalGarbage, 1000)
}
