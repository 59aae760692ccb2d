package factories

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestStatusResult: a finished game's status carries the scores, places and
// winners that Scores computes, so nothing needs to replay a game to learn
// who won; in solo play The Machine's score is the opponent's.
func TestStatusResult(t *testing.T) {
	for _, players := range []int{1, 2, 4} {
		for seed := uint64(1); seed <= 6; seed++ {
			final, _ := playRandom(t, Config{Players: players}, seed, nil)
			st := StatusOf(final)
			if !st.Over || st.Result == nil {
				t.Fatalf("%d players, seed %d: over %v, result %v", players, seed, st.Over, st.Result)
			}
			r := st.Result
			if len(r.Scores) != players || len(r.Ranks) != players {
				t.Fatalf("%d players: result %+v", players, r)
			}
			var winners []int
			for _, sc := range Scores(final) {
				if sc.Machine {
					if r.Opponent == nil || *r.Opponent != sc.Total {
						t.Errorf("seed %d: opponent %v; The Machine scored %d", seed, r.Opponent, sc.Total)
					}
					continue
				}
				if r.Scores[sc.Seat] != sc.Total || r.Ranks[sc.Seat] != sc.Rank {
					t.Errorf("seed %d seat %d: result %d (place %d); scores say %d (place %d)",
						seed, sc.Seat, r.Scores[sc.Seat], r.Ranks[sc.Seat], sc.Total, sc.Rank)
				}
				if sc.Winner {
					winners = append(winners, sc.Seat)
				}
			}
			slices.Sort(winners)
			if !slices.Equal(r.Winners, winners) {
				t.Errorf("seed %d: winners %v; scores say %v", seed, r.Winners, winners)
			}
			// The holdings are each seat's final compound, by name.
			for seat, p := range final.Players {
				var names []string
				for _, b := range p.Compound {
					names = append(names, b.Card.Name())
				}
				if len(r.Holdings) != players || !slices.Equal(r.Holdings[seat], names) {
					t.Errorf("seed %d seat %d: holdings %v, compound %v", seed, seat, r.Holdings, names)
				}
			}
			if players > 1 && r.Opponent != nil {
				t.Errorf("a %d-player game has an opponent score", players)
			}
		}
	}
	if st := StatusOf(mustNew(t, 3)); st.Result != nil {
		t.Errorf("a game in play has a result: %+v", st.Result)
	}
}

func mustNew(t *testing.T, players int) State {
	t.Helper()
	s, err := New(Config{Players: players}, 7)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRulesOptions: the difficulty is an option of solo games only, and New
// refuses what the options do not offer.
func TestRulesOptions(t *testing.T) {
	r := Rules
	if lo, hi := r.Seats(); lo != 1 || hi != 5 {
		t.Errorf("Seats() = %d, %d", lo, hi)
	}
	for _, tc := range []struct {
		seats int
		opts  string
		want  string // difficulty, or the error
	}{
		{1, ``, "medium"},
		{1, `{"difficulty":"insane"}`, "insane"},
		{1, `{"difficulty":"silly"}`, `choose easy, medium, hard or insane`},
		{2, `{"difficulty":"hard"}`, `only for games of 1 seat`},
		{2, ``, ""},
		{6, ``, "1 to 5 seats"},
		{0, ``, "1 to 5 seats"},
	} {
		raw, err := r.New(tc.seats, json.RawMessage(tc.opts), 1)
		if err != nil {
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%d, %s): %v; want %q", tc.seats, tc.opts, err, tc.want)
			}
			continue
		}
		s, err := Decode(mustJSON(raw))
		if err != nil || s.Config.Difficulty != tc.want {
			t.Errorf("New(%d, %s): difficulty %q, %v; want %q", tc.seats, tc.opts, s.Config.Difficulty, err, tc.want)
		}
	}
}
