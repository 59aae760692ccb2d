package kit

import (
	"fmt"
	"reflect"
	"testing"
)

// TestMenuOfGroupsInOrder: moves of groups interleaved come out in their
// groups, each in the moves' order, the groups by rank then by their
// first move; a move that does not encode is left out, a group of none
// has no moves, and a group's moves never run into the next's.
func TestMenuOfGroupsInOrder(t *testing.T) {
	type move struct {
		Group string
		N     int
		Bad   any // a func, which json cannot encode
	}
	moves := []move{{"b", 1, nil}, {"a", 2, nil}, {"b", 3, nil}, {"c", 4, func() {}}, {"a", 5, nil}, {"b", 6, func() {}}, {"d", 7, nil}}
	rank := map[string]int{"a": 1, "b": 0, "c": 0, "d": 1}
	got := MenuOf(moves, func(m move) (MoveGroup, int) { return MoveGroup{Key: m.Group, Title: m.Group}, rank[m.Group] },
		func(m move) MenuMove { return MenuMove{Label: fmt.Sprint(m.N)} })
	labels := map[string][]string{}
	var keys []string
	for _, g := range got {
		keys = append(keys, g.Key)
		for _, mv := range g.Moves {
			labels[g.Key] = append(labels[g.Key], mv.Label)
		}
		if len(g.Moves) == 0 && g.Moves != nil {
			t.Errorf("group %s: no moves, but not nil", g.Key)
		}
		if cap(g.Moves) != len(g.Moves) {
			t.Errorf("group %s: room for %d moves past its own", g.Key, cap(g.Moves)-len(g.Moves))
		}
	}
	if want := []string{"b", "c", "a", "d"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("groups %v, want %v", keys, want)
	}
	if want := map[string][]string{"b": {"1", "3"}, "a": {"2", "5"}, "d": {"7"}}; !reflect.DeepEqual(labels, want) {
		t.Errorf("moves %v, want %v", labels, want)
	}
}
