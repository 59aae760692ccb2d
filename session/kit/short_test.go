package kit

import (
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
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
		{"player-adf1-longer-name", "player-a014", "player-0dc1"},
	} {
		for _, n := range []int{8, 10, 14} {
			s, seen := Seats{Names: names}, map[string]int{}
			for seat := range names {
				got := s.Short(seat, n)
				if len([]rune(got)) > n {
					t.Errorf("%q at %d: %q is wider", names, n, got)
				}
				if !cutSaid(names[seat], got) {
					t.Errorf("%q at %d: %q is cut where no … says so", names, n, got)
				}
				if other, ok := seen[got]; ok {
					t.Errorf("%q at %d: seats %d and %d both read %q", names, n, other, seat, got)
				}
				seen[got] = seat
			}
		}
	}
}

// TestShortKeepsTheBotMarkWhole: a player's seat handed to a bot is
// named "player-adf1 (bot)" where that fits, and shortened as the
// player's own name where it does not: the Furnace market read
// "p…df1 (b:4", the mark cut and the cut unsaid.
func TestShortKeepsTheBotMarkWhole(t *testing.T) {
	s := Seats{Names: []string{"player-a014", "player-0dc1", "player-3406", "player-adf1"},
		Bots: []string{"greedy", "", "", "greedy"}, L: lang.For(lang.English)}
	for _, tc := range []struct {
		seat, n int
		want    string
	}{
		{3, 17, "player-adf1 (bot)"},
		{3, 8, "play…df1"},
		{0, 8, "play…014"},
		{1, 8, "pla…0dc1"},
	} {
		got := s.Short(tc.seat, tc.n)
		if got != tc.want {
			t.Errorf("seat %d at %d: %q, want %q", tc.seat, tc.n, got, tc.want)
		}
	}
}

// cutSaid reports whether short is name, some of its words whole ("Carol
// Smith"), or name with runs of it left out where an ellipsis says so: every piece between them in order, the
// first its start and the last its end unless an ellipsis stands there.
func cutSaid(name, short string) bool {
	if short == name || !strings.Contains(short, "…") && wordsOf(name, short) {
		return true
	}
	pieces := strings.Split(short, "…")
	rest := name
	for i, p := range pieces {
		at := strings.Index(rest, p)
		switch {
		case at < 0, i == 0 && at != 0:
			return false
		case i == len(pieces)-1 && p != "" && !strings.HasSuffix(rest, p):
			return false
		}
		rest = rest[at+len(p):]
	}
	return true
}

// wordsOf reports whether short is words of name, whole and in order.
func wordsOf(name, short string) bool {
	words := strings.Fields(name)
	for _, w := range strings.Fields(short) {
		i := slices.Index(words, w)
		if i < 0 {
			return false
		}
		words = words[i+1:]
	}
	return true
}
