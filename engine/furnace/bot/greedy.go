package bot

import (
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// greedy scores what each legal move leads to and plays the best:
//
//   - in the auction, each placement by what the disc is expected to bring:
//     the card's worth for the productions ahead times the chance that the
//     disc stays the highest, plus the compensation it gets otherwise;
//   - when the auction is resolved, each count of a compensation by the
//     position it leaves;
//   - in production, a whole plan: a beam search over the seat's own moves
//     to the end of its production (the seat's production depends on no
//     one else), played with the engine's rules in place on a guessed
//     state, scored by the position after done.
type greedy struct {
	rng   engine.RNG
	legal []furnace.Move // reused between searches
}

func newGreedy(seed uint64) Bot { return &greedy{rng: engine.NewRNG(seed)} }

func (*greedy) Name() string { return "greedy" }

func (g *greedy) Choose(v furnace.View) furnace.Move {
	switch {
	case len(v.Legal) == 0:
		return furnace.Move{}
	case len(v.Legal) == 1:
		return v.Legal[0]
	case v.Phase == furnace.AuctionPhase:
		return g.bid(&v)
	}
	w := guess(&v, &g.rng)
	if v.Phase == furnace.ResolvePhase {
		return g.bestNext(&w, v.Seat, v.Legal)
	}
	return g.plan(&w, v.Seat)
}

// bestNext plays each of legal on a copy of w and returns the one that
// leaves seat the best position.
func (g *greedy) bestNext(w *furnace.State, seat int, legal []furnace.Move) furnace.Move {
	best, bestValue := legal[0], -1e18
	for _, m := range legal {
		c := w.Clone()
		if c.Play(seat, m) != nil {
			continue
		}
		if val := value(&c.Players[seat], productionsAhead(&c, seat)); val > bestValue {
			best, bestValue = m, val
		}
	}
	return best
}

// Beam search limits: positions kept per step, and steps (a seat has at
// most some dozen cards and upgrades to play).
const (
	beamWidth = 6
	beamDepth = 40
)

// node is a position in the production search: the state, the first move
// of the plan that reached it, and the value of stopping there.
type node struct {
	s     furnace.State
	first furnace.Move
	value float64
}

// plan searches the seat's production to its end and returns the first
// move of the best plan found. Each position is scored by what done would
// leave (the unresolved cards' extractions in, no more processing).
func (g *greedy) plan(w *furnace.State, seat int) furnace.Move {
	beam := []node{{s: *w}}
	best := node{value: -1e18}
	seen := map[key]bool{}
	for range beamDepth {
		var next []node
		for _, n := range beam {
			g.legal = furnace.AppendLegal(g.legal[:0], &n.s, seat)
			for _, m := range g.legal {
				c := n.s.Clone()
				if c.Play(seat, m) != nil {
					continue
				}
				first := n.first
				if first.Kind == "" {
					first = m
				}
				if m.Kind == furnace.Done {
					if val := value(&c.Players[seat], productionsAhead(&c, seat)); val > best.value {
						best = node{first: first, value: val}
					}
					continue
				}
				k := keyOf(&c.Players[seat])
				if seen[k] {
					continue
				}
				seen[k] = true
				next = append(next, node{s: c, first: first, value: stopValue(c, seat)})
			}
		}
		if len(next) == 0 {
			break
		}
		slices.SortStableFunc(next, func(a, b node) int {
			switch {
			case a.value > b.value:
				return -1
			case a.value < b.value:
				return 1
			}
			return 0
		})
		beam = next[:min(len(next), beamWidth)]
	}
	if best.first.Kind == "" {
		return furnace.Move{Kind: furnace.Done}
	}
	return best.first
}

// stopValue is the value of the seat's position were it done now.
func stopValue(s furnace.State, seat int) float64 {
	c := s.Clone()
	if c.Play(seat, furnace.Move{Kind: furnace.Done}) != nil {
		return value(&s.Players[seat], productionsAhead(&s, seat))
	}
	return value(&c.Players[seat], productionsAhead(&c, seat))
}

// key tells production positions apart: the seat's goods, which cards are
// used and upgraded, and what is open. Two plans reaching one key are the
// same from there on.
type key struct {
	goods    furnace.Goods
	used     uint64
	upgraded uint64
	order    uint64 // a hash of the chain's order, which placements change
	open     furnace.Card
	repeated bool
	waiting  int
}

func keyOf(p *furnace.Player) key {
	k := key{goods: p.Goods, open: p.Open, repeated: p.Repeated, waiting: len(p.New)}
	for i, o := range p.Cards {
		if o.Used {
			k.used |= 1 << (i % 64)
		}
		if o.Upgraded {
			k.upgraded |= 1 << (i % 64)
		}
		k.order = k.order*31 + uint64(o.Card)
	}
	return k
}
