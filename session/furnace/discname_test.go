package furnace

import (
	"testing"

	"github.com/smokestack/smokestack/session/kit"
)

// TestDiscName: a name of several words keeps whole words at its ends in
// the discs column (issue 25, point 13).
func TestDiscName(t *testing.T) {
	for _, tc := range []struct {
		names []string
		seat  int
		want  string
	}{
		{[]string{"alice", "Carol Ann"}, 1, "Carol"},
		{[]string{"alice", "bob"}, 1, "bob"},
		{[]string{"alice", "greedy bot 2", "greedy bot 3"}, 2, "greedy…3"},
		{[]string{"alice", "Caroline Ann", "Caroline Bea"}, 1, "Caro…Ann"},
	} {
		if got := discName(kit.Seats{Names: tc.names}, tc.seat); got != tc.want {
			t.Errorf("%q's seat %d: %q, want %q", tc.names, tc.seat, got, tc.want)
		}
	}
}
