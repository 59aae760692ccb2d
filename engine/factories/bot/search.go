package bot

import (
	"math"
	"slices"

	"github.com/smokestack/smokestack/engine/factories"
)

// searcher holds what a bot's searches reuse from one position to the
// next: positions to copy into and lists of moves. Positions are played in
// place (factories.State.Play) on copies made with CopyTo, so once the
// pool has grown a search allocates next to nothing. A searcher belongs to
// one bot, which decides one move at a time.
type searcher struct {
	free []*factories.State
	// moves lists the moves of the positions a search expands; root those
	// of the position a caller starts from, which must outlive them.
	moves, root    factories.MoveBuffer
	beam, children []node
	seen           fingerprints
	hands          handMemo
	// played counts the moves played, the measure of a decision's budget.
	played int
	// byFirst, when a caller sets it (one per legal move, at -Inf),
	// collects the best score search reaches by each first move.
	byFirst []float64
}

// get returns a position from the pool, to be overwritten with CopyTo.
func (x *searcher) get() *factories.State {
	if n := len(x.free); n > 0 {
		s := x.free[n-1]
		x.free = x.free[:n-1]
		return s
	}
	return new(factories.State)
}

// put gives a position back to the pool; nothing may use it afterwards.
func (x *searcher) put(s *factories.State) {
	if s != nil {
		x.free = append(x.free, s)
	}
}

// copyOf returns a copy of s from the pool.
func (x *searcher) copyOf(s *factories.State) *factories.State {
	c := x.get()
	s.CopyTo(c)
	return c
}

// play returns a copy of s from the pool with m played by seat, or nil if
// the move is refused (in a guessed world a move of the view can be).
func (x *searcher) play(s *factories.State, seat int, m factories.Move) *factories.State {
	next := x.copyOf(s)
	x.played++
	if err := next.Play(seat, m, nil); err != nil {
		x.put(next)
		return nil
	}
	return next
}

// playOrStay is play, or a copy of s as it is when m is refused.
func (x *searcher) playOrStay(s *factories.State, seat int, m factories.Move) *factories.State {
	if next := x.play(s, seat, m); next != nil {
		return next
	}
	return x.copyOf(s)
}

// node is a position reached by a plan, with the index in legal of the
// plan's first move.
type node struct {
	state *factories.State
	first int
	score float64
	// seq is the order in which a beam search found the node, its
	// tie-break (see byScoreThenSeq).
	seq int
}

// byScoreThenSeq orders nodes best first, ties in their order of
// discovery: what a stable sort by score gives, at the cost of an
// unstable one.
func byScoreThenSeq(a, b node) int {
	if c := compareDesc(a.score, b.score); c != 0 {
		return c
	}
	return a.seq - b.seq
}

// search is a beam search over the seat's own work-phase moves from s,
// whose legal moves are legal: at each depth only the best beamWidth
// positions are expanded. It returns the best position seen at any depth,
// with the index of its plan's first move; the caller owns that position
// and gives it back with put. Other seats are not modelled: in the work
// phase they act on their own compounds and only share the deck.
func (x *searcher) search(s *factories.State, legal []factories.Move, j judge, beamWidth, beamDepth int) node {
	best := node{score: math.Inf(-1)}
	j.memo = &x.hands
	beam := append(x.beam[:0], node{state: s})
	for depth := 0; depth < beamDepth && len(beam) > 0; depth++ {
		children := x.children[:0]
		x.seen.reset()
		for _, n := range beam {
			moves := legal
			if depth > 0 {
				moves = x.moves.Legal(n.state, j.seat)
			}
			for i, m := range moves {
				next := x.play(n.state, j.seat, m)
				if next == nil {
					continue
				}
				c := node{state: next, first: n.first, score: j.value(next)}
				if depth == 0 {
					c.first = i
				}
				if x.byFirst != nil && c.score > x.byFirst[c.first] {
					x.byFirst[c.first] = c.score
				}
				if c.score > best.score {
					if best.state == nil {
						best.state = x.get()
					}
					next.CopyTo(best.state)
					best.first, best.score = c.first, c.score
				}
				if next.Phase != factories.WorkPhase || next.Players[j.seat].Done {
					x.put(next)
					continue
				}
				if x.seen.add(fingerprint(&next.Players[j.seat])) {
					c.seq = len(children)
					children = append(children, c)
				} else {
					x.put(next)
				}
			}
		}
		if depth > 0 { // the root is the caller's
			for _, n := range beam {
				x.put(n.state)
			}
		}
		// Sorted by pointer-sized nodes, not states: a State is large. The
		// order is stable (ties keep their order of discovery, seq). Only
		// the kept are sorted: the rest are selected out first.
		keep := min(len(children), beamWidth)
		selectBest(children, keep)
		slices.SortFunc(children[:keep], byScoreThenSeq)
		for _, c := range children[keep:] {
			x.put(c.state)
		}
		beam = append(beam[:0], children[:keep]...)
		x.children = children
	}
	if beamDepth > 0 && len(beam) > 0 && beam[0].state != s {
		for _, n := range beam {
			x.put(n.state)
		}
	}
	x.beam = beam
	return best
}

// selectBest reorders nodes so that its first k are the best k by
// byScoreThenSeq, in no particular order (quickselect).
func selectBest(nodes []node, k int) {
	lo, hi := 0, len(nodes)-1
	for k > 0 && k < hi-lo+1 {
		// The median of three as pivot, moved to hi.
		mid := lo + (hi-lo)/2
		if byScoreThenSeq(nodes[mid], nodes[lo]) < 0 {
			nodes[mid], nodes[lo] = nodes[lo], nodes[mid]
		}
		if byScoreThenSeq(nodes[hi], nodes[lo]) < 0 {
			nodes[hi], nodes[lo] = nodes[lo], nodes[hi]
		}
		if byScoreThenSeq(nodes[mid], nodes[hi]) < 0 {
			nodes[mid], nodes[hi] = nodes[hi], nodes[mid]
		}
		pivot := nodes[hi]
		p := lo
		for i := lo; i < hi; i++ {
			if byScoreThenSeq(nodes[i], pivot) < 0 {
				nodes[i], nodes[p] = nodes[p], nodes[i]
				p++
			}
		}
		nodes[p], nodes[hi] = nodes[hi], nodes[p]
		// nodes[lo:p] beat the pivot, now at p; the rest are worse.
		switch n := p - lo + 1; {
		case k == n || k == n-1:
			return
		case k < n-1:
			hi = p - 1
		default:
			k -= n
			lo = p + 1
		}
	}
}

// fingerprint identifies a seat's work-phase position, so plans that reach
// the same place in a different order are expanded once: FNV-1a (as
// hash/fnv's New64a) over the values' varint encoding (as
// binary.AppendVarint), fed byte by byte without a buffer.
func fingerprint(p *factories.Player) uint64 {
	h := uint64(14695981039346656037)
	h = fnvVarint(h, p.Metal)
	h = fnvVarint(h, p.Energy)
	h = fnvVarint(h, p.Goods)
	h = fnvVarint(h, len(p.Hand))
	for _, c := range p.Hand {
		h = fnvVarint(h, int(c))
	}
	for _, d := range p.Dice {
		h = fnvVarint(h, d.Value)
		if d.Placed {
			h = fnvVarint(h, -1)
		}
	}
	for _, b := range p.Compound {
		h = fnvVarint(h, int(b.Card))
		if b.Used {
			h = fnvVarint(h, -1)
		}
	}
	return h
}

// fnvVarint feeds x's zigzag varint bytes to the FNV-1a hash h.
func fnvVarint(h uint64, x int) uint64 {
	const prime = 1099511628211
	ux := uint64(x) << 1
	if x < 0 {
		ux = ^ux
	}
	for ux >= 0x80 {
		h ^= ux&0x7f | 0x80
		h *= prime
		ux >>= 7
	}
	h ^= ux
	return h * prime
}

// fingerprints is a set of fingerprints, emptied by bumping a generation
// instead of clearing: a beam search empties it at every depth.
type fingerprints struct {
	keys []uint64
	gens []uint32
	gen  uint32
	n    int
}

// reset empties the set.
func (f *fingerprints) reset() {
	f.gen++
	f.n = 0
	if f.gen == 0 { // wrapped: no stale entry may look current
		clear(f.gens)
		f.gen = 1
	}
}

// add puts k in the set and reports whether it was not there before.
func (f *fingerprints) add(k uint64) bool {
	if 2*(f.n+1) > len(f.keys) {
		f.grow()
	}
	mask := uint64(len(f.keys) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> 32 & mask; ; i = (i + 1) & mask {
		if f.gens[i] != f.gen {
			f.keys[i], f.gens[i] = k, f.gen
			f.n++
			return true
		}
		if f.keys[i] == k {
			return false
		}
	}
}

// grow doubles the table, keeping the current generation's keys.
func (f *fingerprints) grow() {
	keys, gens, gen := f.keys, f.gens, f.gen
	size := max(2*len(keys), 256)
	f.keys, f.gens, f.gen, f.n = make([]uint64, size), make([]uint32, size), 1, 0
	for i, k := range keys {
		if gens[i] == gen {
			f.add(k)
		}
	}
}
