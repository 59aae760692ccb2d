package kit

import (
	"bytes"
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
	// Every move's group first, counting each group's moves, in arrays
	// on the stack for a menu's usual size: the groups are then made in
	// one slice of their number, in rank order, and the moves go into one
	// array, each group's in a slice of it, rather than into slices grown
	// a group or a move at a time (most of a menu's garbage).
	type head struct {
		g           MoveGroup
		rank, count int
	}
	var smallHeads [16]head
	var smallOf [64]int
	heads, of := smallHeads[:0], smallOf[:0] // of: each move's group
	index := map[string]int{}
	for _, mv := range moves {
		g, rank := group(mv)
		i, ok := index[g.Key]
		if !ok {
			i = len(heads)
			index[g.Key] = i
			g.Moves = nil
			heads = append(heads, head{g: g, rank: rank})
		}
		of = append(of, i)
		heads[i].count++
	}
	all := make([]MenuMove, len(moves))
	for i := range heads {
		n := heads[i].count
		heads[i].g.Moves = all[:0:n] // room for its n moves, no more
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
		g := &heads[of[k]].g
		g.Moves = append(g.Moves, it) // within its cap: no copy
	}
	slices.SortStableFunc(heads, func(a, b head) int { return cmp.Compare(a.rank, b.rank) })
	out := make([]MoveGroup, len(heads))
	for i := range heads {
		out[i] = heads[i].g
		// Clipped, so that no append to a group writes into the next's
		// moves where one failed to encode; nil as if none were offered.
		if out[i].Moves = slices.Clip(out[i].Moves); len(out[i].Moves) == 0 {
			out[i].Moves = nil
		}
	}
	return out
}

// Reoffered finds, among n moves on offer (at(i) is move i's words and
// data), the move a player saw worded as words with data: that very move
// if it is still offered, else the first worded the same, or -1. Words
// are all a player chooses by, and a move's data may name a die by its
// place, which shifts when another die is placed: "1 on generate" chosen
// while a 1 was being placed is still offered, as the other 1.
func Reoffered(n int, at func(i int) (words string, data []byte), words string, data []byte) int {
	same := -1
	for i := range n {
		w, d := at(i)
		switch {
		case w != words:
		case bytes.Equal(d, data):
			return i
		case same < 0:
			same = i
		}
	}
	return same
}
