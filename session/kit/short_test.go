package kit

import (
	"testing"
)

// TestShortTellsSeatsApart: a name shortened for a narrow column keeps
// whole words where it can and is never cut to a part it shares with
// another seat's (issue 25, point 13; issue 36, point 10: the Furnace
// market read "greedy…4:4 > greedy…3:3").
func TestShortTellsSeatsApart(t *testing.T) {
	for _, tc := range []struct {
		names []string
		seat  int
		want  string
	}{
		{[]string{"alice", "Carol Ann"}, 1, "Carol"},
		{[]string{"alice", "bob"}, 1, "bob"},
		{[]string{"alice", "greedy bot 4", "greedy bot 3"}, 1, "greedy 4"},
		{[]string{"alice", "greedy bot 4", "greedy bot 3"}, 2, "greedy 3"},
		{[]string{"alice", "Caroline Ann", "Caroline Bea"}, 1, "Caro…Ann"},
		{[]string{"alexander1", "alexander2"}, 0, "alexan…1"},
		{[]string{"bartholomew", "alexandrina"}, 0, "barthol…"},
		{[]string{"Mary Jane Watson Parker", "Mary Jane Watson Smith"}, 1, "Ma…Smith"},
	} {
		if got := (Seats{Names: tc.names}).Short(tc.seat, 8); got != tc.want {
			t.Errorf("%q's seat %d: %q, want %q", tc.names, tc.seat, got, tc.want)
		}
	}
	// Every seat of every table of look-alike names reads apart from the
	// others, at every width a board uses.
	for _, names := range [][]string{
		{"greedy bot 1", "greedy bot 2", "greedy bot 3", "greedy bot 4", "greedy bot 5"},
		{"random bot 1", "random bot 12", "random bot 2"},
		{"alexandrina", "alexandrine", "alexandra", "alex"},
		{"Carol Ann Smith", "Carol Ann Smithers", "Carol Bea"},
	} {
		for _, n := range []int{8, 10, 14} {
			s, seen := Seats{Names: names}, map[string]int{}
			for seat := range names {
				got := s.Short(seat, n)
				if len([]rune(got)) > n {
					t.Errorf("%q at %d: %q is wider", names, n, got)
				}
				if other, ok := seen[got]; ok {
					t.Errorf("%q at %d: seats %d and %d both read %q", names, n, other, seat, got)
				}
				seen[got] = seat
			}
		}
	}
}
