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
// the order of their first move within a rank.
//
// A move that writes its own JSON (json.Marshaler) is carried as it
// writes it: the games' moves write compact JSON escaped as encoding/json
// escapes it, as json.Marshal would have written it after copying what
// the move wrote twice more, at every update.
func MenuOf[M any](moves []M, group func(M) (MoveGroup, int), item func(M) MenuMove) []MoveGroup {
	var groups []MoveGroup
	var ranks []int
	index := map[string]int{}
	for k, mv := range moves {
		g, rank := group(mv)
		i, ok := index[g.Key]
		if !ok {
			i = len(groups)
			index[g.Key] = i
			g.Moves = nil
			groups = append(groups, g)
			ranks = append(ranks, rank)
		}
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
		groups[i].Moves = append(groups[i].Moves, it)
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
