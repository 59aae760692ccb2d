package room

import (
	"testing"

	"github.com/smokestack/smokestack/lobby/store"
)

// TestSeatName: a seat shows its player's name, with a suffix when another
// seat already shows it, and keeps that name when its player comes back.
func TestSeatName(t *testing.T) {
	seats := []store.Seat{{Player: "a", Name: "alice"}, {}, {Player: "c", Name: "Alice-2"}, {Bot: "greedy", Name: "greedy bot 4"}}
	if got := seatName(seats, 1, "ALICE"); got != "ALICE-3" {
		t.Errorf("a third alice sits as %q, want ALICE-3", got)
	}
	if got := seatName(seats, 0, "alice"); got != "alice" {
		t.Errorf("alice back in her seat is %q", got)
	}
	if got := seatName(seats, 2, "alice"); got != "alice-2" {
		t.Errorf("the second alice back in her seat is %q, want alice-2", got)
	}
	if got := seatName(seats, 1, "bob"); got != "bob" {
		t.Errorf("bob sits as %q", got)
	}
}
