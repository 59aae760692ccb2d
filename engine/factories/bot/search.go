package bot

import (
	"encoding/binary"
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
	seen           map[uint64]bool
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
}

// search is a beam search over the seat's own work-phase moves from s,
// whose legal moves are legal: at each depth only the best beamWidth
// positions are expanded. It returns the best position seen at any depth,
// with the index of its plan's first move; the caller owns that position
// and gives it back with put. Other seats are not modelled: in the work
// phase they act on their own compounds and only share the deck.
func (x *searcher) search(s *factories.State, legal []factories.Move, j judge, beamWidth, beamDepth int) node {
	best := node{score: math.Inf(-1)}
	if x.seen == nil {
		x.seen = map[uint64]bool{}
	}
	beam := append(x.beam[:0], node{state: s})
	for depth := 0; depth < beamDepth && len(beam) > 0; depth++ {
		children := x.children[:0]
		clear(x.seen)
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
				if k := fingerprint(&next.Players[j.seat]); !x.seen[k] {
					x.seen[k] = true
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
		// Sorted by pointer-sized nodes, not states: a State is large.
		slices.SortStableFunc(children, func(a, b node) int { return compareDesc(a.score, b.score) })
		keep := min(len(children), beamWidth)
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

// fingerprint identifies a seat's work-phase position, so plans that reach
// the same place in a different order are expanded once.
func fingerprint(p *factories.Player) uint64 {
	var space [160]byte
	buf := space[:0]
	add := func(x int) { buf = binary.AppendVarint(buf, int64(x)) }
	add(p.Metal)
	add(p.Energy)
	add(p.Goods)
	add(len(p.Hand))
	for _, c := range p.Hand {
		add(int(c))
	}
	for _, d := range p.Dice {
		add(d.Value)
		if d.Placed {
			add(-1)
		}
	}
	for _, b := range p.Compound {
		add(int(b.Card))
		if b.Used {
			add(-1)
		}
	}
	// FNV-1a over the bytes, as hash/fnv's New64a, without its allocation.
	h := uint64(14695981039346656037)
	for _, b := range buf {
		h ^= uint64(b)
		h *= 1099511628211
	}
	return h
}
