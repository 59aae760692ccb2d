package factories

import (
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestMachineLogsItsRollFirst: The Machine's turn is told in the order it
// happens: its roll, then the card its green die takes or reveals
// (issue 36, point 11).
func TestMachineLogsItsRollFirst(t *testing.T) {
	s, err := New(Config{Players: 1}, 7)
	if err != nil {
		t.Fatal(err)
	}
	rng := engine.NewRNG(7)
	for step := 0; step < 200 && s.Phase != GameOver; step++ {
		v := ViewOf(s, 0)
		var events []Event
		if err := s.Play(0, v.Legal[rng.Intn(len(v.Legal))], &events); err != nil {
			t.Fatal(err)
		}
		roll, added := -1, -1
		for i, e := range events {
			switch e.Words.ID {
			case "factories.log.machine.roll":
				roll = i
			case "factories.log.machine.added":
				if added < 0 {
					added = i
				}
			}
		}
		if added >= 0 {
			if roll < 0 || roll > added {
				t.Fatalf("step %d: The Machine's turn reads %v", step, events)
			}
			return
		}
	}
	t.Fatal("The Machine never added a card")
}
