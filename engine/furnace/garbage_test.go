package furnace

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
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
// kind does not use.
func TestGarbageMoveFields(t *testing.T) {
	rules := Rules{}
	checked := 0
	for _, tc := range []struct {
		seats   int
		options string
	}{{2, `{"capitalists":"on"}`}, {4, `{"chain":"on"}`}} {
		state, err := rules.New(tc.seats, json.RawMessage(tc.options), uint64(50+tc.seats))
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(uint64(tc.seats))
		for step := 0; step < 300; step++ {
			st, err := rules.Status(state)
			if err != nil {
				t.Fatal(err)
			}
			if st.Over || len(st.Acting) == 0 {
				break
			}
			seat := st.Acting[rng.Intn(len(st.Acting))]
			raw, err := rules.View(state, seat)
			if err != nil {
				t.Fatal(err)
			}
			var v View
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			if step%5 == 0 {
				for _, m := range v.Legal {
					checked += spoil(t, rules, state, seat, m)
				}
			}
			mv, _ := json.Marshal(v.Legal[rng.Intn(len(v.Legal))])
			if state, _, err = rules.Apply(state, seat, mv); err != nil {
				t.Fatalf("legal move %s refused: %v", mv, err)
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d spoilt moves judged", checked)
	}
}

// spoil plays m with each field in turn set to garbage and checks the
// answers; it returns how many it judged.
func spoil(t *testing.T, rules Rules, state json.RawMessage, seat int, m Move) int {
	t.Helper()
	base, _ := json.Marshal(m)
	n := 0
	for field, values := range garbageValues {
		for _, val := range values {
			var fields map[string]any
			_ = json.Unmarshal(base, &fields)
			fields[field] = val
			mv, _ := json.Marshal(fields)
			n++
			_, _, err := func() (s json.RawMessage, e []engine.Event, err error) {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s panicked: %v", mv, p)
					}
				}()
				return rules.Apply(state, seat, mv)
			}()
			if err == nil {
				continue // the field does not matter to this move, or the value happens to fit
			}
			msg := err.Error()
			for _, bad := range refusalGarbage {
				if strings.Contains(msg, bad) {
					t.Errorf("%s is refused with %q", mv, msg)
				}
			}
		}
	}
	return n
}
