package engine

import (
	"encoding/json"
	"testing"
)

// TestTakebacks: steps come back newest first; the record is nil again
// once nobody has anything in it, so a move and its undo leave a state's
// JSON as it was; a checkpoint clears a seat's steps and keeps its reason;
// a clone shares nothing.
func TestTakebacks(t *testing.T) {
	var u Takebacks[[]int]
	u.Keep(3, 1, []int{1})
	u.Keep(3, 1, []int{2})
	c := u.Clone(func(s *[]int) []int { return append([]int(nil), *s...) })
	c[1].Steps[0][0] = 99
	if got := u.Pop(1); got[0] != 2 {
		t.Fatalf("popped %v; want the newest step", got)
	}
	if got := u.Pop(1); got[0] != 1 {
		t.Fatalf("popped %v; want the first step, untouched by the clone", got)
	}
	if u != nil {
		t.Fatalf("record %+v; want nil once empty", u)
	}
	if raw, _ := json.Marshal(struct {
		U Takebacks[[]int] `json:"undo,omitempty"`
	}{u}); string(raw) != `{}` {
		t.Fatalf("empty record as JSON: %s", raw)
	}
	u.Keep(2, 0, []int{1})
	u.Stand(2, 0, "you drew")
	if tb := u.Of(0); len(tb.Steps) != 0 || tb.Why != "you drew" || len(u.Of(5).Steps) != 0 {
		t.Fatalf("after a checkpoint: %+v", u)
	}
}

// TestRecordAndTake: a move recorded with no reason is a step the seat
// takes back, lifted once; one with a reason is a checkpoint, and taking
// back is refused in the game's words without lifting anything.
func TestRecordAndTake(t *testing.T) {
	var u Takebacks[int]
	u.Record(2, 1, "", func() int { return 7 })
	var lifted []int
	lift := func(st int) { lifted = append(lifted, st) }
	if err := u.Take(1, "", lift); err != nil || len(lifted) != 1 || lifted[0] != 7 {
		t.Fatalf("take: %v, lifted %v", err, lifted)
	}
	u.Record(2, 1, "you rolled dice", func() int { t.Fatal("a checkpoint made a step"); return 0 })
	if err := u.Take(1, "nothing to take back: "+u.Of(1).Why, lift); err == nil || err.Error() != "nothing to take back: you rolled dice" || len(lifted) != 1 {
		t.Fatalf("refused take: %v, lifted %v", err, lifted)
	}
	m := Mark[string, string]{Before: "seat", Phase: "work", Round: 2}
	if m.NewPhase("work", 2) || !m.NewPhase("market", 2) || !m.NewPhase("work", 3) {
		t.Error("NewPhase")
	}
}
