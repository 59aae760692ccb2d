// Package movetest checks, for any engine.Ruleset, that moves naming
// nothing (a card that does not exist, a slot or die past the end) are
// refused in words a player can read: never a panic, never a reason
// built from the garbage itself ("unknown card has a"). Each game's tests
// run it with the fields of its own moves.
package movetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// Game is one game to play through: its seats, options and seed.
type Game struct {
	Seats   int
	Options string // the options' JSON, "" for none
	Seed    uint64
}

// Spoil plays each game with seeded random legal moves for up to steps
// moves, and at every spoilEvery'th position plays each legal move again
// with one field at a time set to each of its garbage values (fields the
// move's kind does not use too). Every refusal must be free of the words
// in bad. It fails the test if fewer than least spoilt moves were judged.
// The games are independent, so they run in parallel.
func Spoil(t *testing.T, rules engine.Ruleset, games []Game, steps, spoilEvery int,
	garbage map[string][]any, bad []string, least int) {
	t.Helper()
	var judged atomic.Int64
	played := t.Run("games", func(t *testing.T) {
		for _, g := range games {
			t.Run(fmt.Sprintf("%d seats, seed %d", g.Seats, g.Seed), func(t *testing.T) {
				t.Parallel()
				judged.Add(int64(spoilGame(t, rules, g, steps, spoilEvery, garbage, bad)))
			})
		}
	})
	if !played {
		return // a game failed, and may not have judged its share
	}
	if n := judged.Load(); n < int64(least) {
		t.Fatalf("only %d spoilt moves judged; want at least %d", n, least)
	}
}

// spoilGame plays one game for Spoil and returns how many spoilt moves it
// judged.
func spoilGame(t *testing.T, rules engine.Ruleset, g Game, steps, spoilEvery int,
	garbage map[string][]any, bad []string) int {
	t.Helper()
	var opts json.RawMessage
	if g.Options != "" {
		opts = json.RawMessage(g.Options)
	}
	state, err := rules.New(g.Seats, opts, g.Seed)
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	rng := engine.NewRNG(g.Seed)
	for step := 0; step < steps; step++ {
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
		var v struct {
			Legal []json.RawMessage `json:"legal"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if len(v.Legal) == 0 {
			t.Fatalf("seat %d may act but has no legal move", seat)
		}
		if step%spoilEvery == 0 {
			for _, m := range v.Legal {
				judged += spoil(t, rules, state, seat, m, garbage, bad)
			}
		}
		mv := v.Legal[rng.Intn(len(v.Legal))]
		if state, _, err = rules.Apply(state, seat, mv); err != nil {
			t.Fatalf("legal move %s refused: %v", mv, err)
		}
	}
	return judged
}

// spoil plays m with each field in turn set to each garbage value and
// checks the refusals; it returns how many moves it judged.
func spoil(t *testing.T, rules engine.Ruleset, state engine.State, seat int, m json.RawMessage,
	garbage map[string][]any, bad []string) int {
	t.Helper()
	n := 0
	for field, values := range garbage {
		for _, val := range values {
			var fields map[string]any
			if err := json.Unmarshal(m, &fields); err != nil {
				t.Fatalf("legal move %s: %v", m, err)
			}
			fields[field] = val
			mv, _ := json.Marshal(fields)
			n++
			err := apply(t, rules, state, seat, mv)
			if err == nil {
				continue // the field does not matter to this move, or the value happens to fit
			}
			for _, b := range bad {
				if strings.Contains(err.Error(), b) {
					t.Errorf("%s is refused with %q", mv, err)
				}
			}
		}
	}
	return n
}

// apply plays mv, failing the test on a panic.
func apply(t *testing.T, rules engine.Ruleset, state engine.State, seat int, mv json.RawMessage) (err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked: %v", mv, p)
		}
	}()
	_, _, err = rules.Apply(state, seat, mv)
	return err
}
