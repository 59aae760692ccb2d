package bot

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// Rated is a move with what it is worth to the search bot (see Hints).
type Rated struct {
	Move  factories.Move
	Worth float64
}

// Hints returns the search bot's best n moves for v's seat, best first,
// as search-quick rates them (a quarter of search's time), each with
// what it is worth to the bot: in the market phase the mean
// final margin over the best rival its rollouts reached, in the work phase
// the judge's score of the best position a plan starting with it reaches.
// Like the bot, it sees the view alone; seed makes it replay the same.
func Hints(v factories.View, seed uint64, n int) []Rated {
	v.Legal = slices.DeleteFunc(slices.Clone(v.Legal), isUndo)
	if len(v.Legal) == 0 || n <= 0 {
		return nil
	}
	b := newSearch(quickLevel)(seed).(*search)
	var out []Rated
	for _, r := range b.rank(v) {
		if len(out) == n {
			break
		}
		out = append(out, Rated{Move: v.Legal[r.first], Worth: r.score})
	}
	return out
}

// JSONHint is Hints for rooms, which speak JSON (engine.Bots.Hint).
func JSONHint(view json.RawMessage, seed uint64, n int) ([]engine.Hint, error) {
	var v factories.View
	if err := json.Unmarshal(view, &v); err != nil {
		return nil, fmt.Errorf("hint: read view: %w", err)
	}
	var out []engine.Hint
	for _, r := range Hints(v, seed, n) {
		m, err := json.Marshal(r.Move)
		if err != nil {
			return nil, fmt.Errorf("hint: %w", err)
		}
		out = append(out, engine.Hint{Move: m, Worth: r.Worth})
	}
	return out, nil
}
