package factories

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine"
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
// field at a time, including fields its kind does not use.
func TestGarbageMoveFields(t *testing.T) {
	rules := Rules{}
	checked := 0
	for _, seats := range []int{1, 3} {
		state, err := rules.New(seats, nil, uint64(40+seats))
		if err != nil {
			t.Fatal(err)
		}
		rng := engine.NewRNG(uint64(seats))
		for step := 0; step < 400; step++ {
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
			if step%7 == 0 {
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

// TestHireUnknownDiscard is the refusal a player once met as "…needs a
// gear blueprint; unknown card has a".
func TestHireUnknownDiscard(t *testing.T) {
	rules := Rules{}
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
