package kit

import (
	"cmp"
	"encoding/json"
	"slices"
)

// MenuOf builds a Board's menu from its legal moves: each move joins the
// group group gives it (the first move of a key makes the group, with its
// title, card and rank), is worded by item (its label, and whether it
// needs confirming) and carried as its JSON. Groups come by rank, and in
// the order of their first move within a rank. Every move's group is
// asked for, in order, before any move's item.
//
// A move that writes its own JSON (json.Marshaler) is carried as it
// writes it: the games' moves write compact JSON escaped as encoding/json
// escapes it, as json.Marshal would have written it after copying what
// the move wrote twice more, at every update.
func MenuOf[M any](moves []M, group func(M) (MoveGroup, int), item func(M) MenuMove) []MoveGroup {
	// Every move's group first, counting each group's moves: the moves
	// then go into one array, each group's in a slice of it, rather than
	// into slices grown a move at a time (most of a menu's garbage).
	var groups []MoveGroup
	var ranks []int
	index := map[string]int{}
	of := make([]int, len(moves)) // each move's group
	var counts []int
	for k, mv := range moves {
		g, rank := group(mv)
		i, ok := index[g.Key]
		if !ok {
			i = len(groups)
			index[g.Key] = i
			g.Moves = nil
			groups = append(groups, g)
			ranks = append(ranks, rank)
			counts = append(counts, 0)
		}
		of[k] = i
		counts[i]++
	}
	all := make([]MenuMove, len(moves))
	for i, n := range counts {
		groups[i].Moves = all[:0:n] // room for its n moves, no more
		all = all[n:]
	}
	for k, mv := range moves {
		// Asked through a pointer: a move itself would be copied to the
		// heap to be asked.
		var data []byte
		var err error
		if m, ok := any(&moves[k]).(json.Marshaler); ok {
			data, err = m.MarshalJSON()
		} else {
			data, err = json.Marshal(mv)
		}
		if err != nil {
			continue // a game's move always encodes; nothing to offer if not
		}
		it := item(mv)
		it.Move = data
		g := &groups[of[k]]
		g.Moves = append(g.Moves, it) // within its cap: no copy
	}
	for i := range groups {
		// Clipped, so that no append to a group writes into the next's
		// moves where one failed to encode; nil as if none were offered.
		if groups[i].Moves = slices.Clip(groups[i].Moves); len(groups[i].Moves) == 0 {
			groups[i].Moves = nil
		}
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ranks[a], ranks[b]) })
	out := make([]MoveGroup, len(groups))
	for i, j := range order {
		out[i] = groups[j]
	}
	return out
}
