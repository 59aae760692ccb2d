package tally

import (
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestGameEnds plays the first legal move of every acting seat until the
// end: 2*seats*Rounds moves, a result, and hands that stay hidden.
func TestGameEnds(t *testing.T) {
	r := Rules
	st, err := r.New(3, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	bot, _ := FirstLegal("first", 0)
	moves := 0
	for ; moves < 1000; moves++ {
		status, err := r.Status(st)
		if err != nil {
			t.Fatal(err)
		}
		if status.Over {
			if status.Result == nil || len(status.Result.Scores) != 3 || len(status.Result.Winners) == 0 {
				t.Fatalf("result %+v", status.Result)
			}
			break
		}
		seat := status.Acting[0]
		view, _ := r.View(st, seat)
		mv, err := bot(view)
		if err != nil {
			t.Fatal(err)
		}
		if st, _, err = r.Apply(st, seat, mv); err != nil {
			t.Fatal(err)
		}
		var spect View
		raw, _ := r.View(st, engine.Spectator)
		if json.Unmarshal(raw, &spect); spect.Hand != nil || spect.Legal != nil {
			t.Fatalf("a spectator sees %+v", spect)
		}
	}
	if moves != 2*3*Rounds {
		t.Errorf("the game took %d moves; want %d", moves, 2*3*Rounds)
	}
	if _, _, err := r.Apply(st, 0, json.RawMessage(`{"kind":"take"}`)); err == nil {
		t.Error("a move after the end was accepted")
	}
}
