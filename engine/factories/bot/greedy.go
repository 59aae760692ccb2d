package bot

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// greedy plays the move that leads to the best static score of its own
// position (see judge): in the market phase one move ahead (in solo play
// each market move is played out through the work phase that follows, see
// lookahead), in the work phase the first move of the best plan a beam
// search finds, so that multi-step plays, such as generating energy to pay
// for a recipe, are seen.
// It tries moves with factories.Apply on a world rebuilt from the view
// (see guess), so it knows every recipe exactly without seeing hidden cards.
type greedy struct {
	rng engine.RNG
}

func newGreedy(seed uint64) Bot { return &greedy{rng: engine.NewRNG(seed)} }

func (*greedy) Name() string { return "greedy" }

func (g *greedy) Choose(v factories.View) factories.Move {
	switch len(v.Legal) {
	case 0:
		return factories.Move{}
	case 1:
		return v.Legal[0]
	}
	s := guess(v, &g.rng)
	j := newJudge(v)
	if v.Phase == factories.WorkPhase {
		return g.plan(s, v.Legal, j)
	}
	if v.Seats == 1 && lookSamples > 0 {
		return g.lookahead(v, s, j)
	}
	best, bestScore := v.Legal[0], math.Inf(-1)
	for _, m := range v.Legal {
		next, _, err := factories.Apply(s, v.Seat, m)
		if err != nil {
			continue // the guessed world differs; the move is legal anyway
		}
		if score := j.value(&next) + g.marketBonus(v, m); score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// Beam search limits: how many positions are kept at each depth, and how
// many own moves ahead the plan looks.
var (
	beamWidth = 8
	beamDepth = 8
)

// node is a position reached by a plan, with the index in legal of the
// plan's first move.
type node struct {
	state *factories.State
	first int
	score float64
}

// plan searches the seat's own work-phase moves with a beam: at each depth
// only the best few positions are expanded. It returns the first move of
// the best position seen at any depth. Other seats are not modelled: in the
// work phase they act on their own compounds and only share the deck.
func (g *greedy) plan(s factories.State, legal []factories.Move, j judge) factories.Move {
	return legal[search(s, legal, j, beamWidth, beamDepth).first]
}

// search is the beam search of plan: it returns the best position seen at
// any depth, with the plan's first move. Positions are held by pointer: a
// State is large, and sorting the children would copy it over and over.
func search(s factories.State, legal []factories.Move, j judge, beamWidth, beamDepth int) node {
	best := node{score: math.Inf(-1)}
	beam := []node{{state: &s}}
	var children []node
	seen := map[uint64]bool{}
	for depth := 0; depth < beamDepth && len(beam) > 0; depth++ {
		children = children[:0]
		clear(seen)
		for _, n := range beam {
			moves := legal
			if depth > 0 {
				moves = factories.Legal(*n.state, j.seat)
			}
			for i, m := range moves {
				next, _, err := factories.Apply(*n.state, j.seat, m)
				if err != nil {
					continue
				}
				c := node{state: &next, first: n.first, score: j.value(&next)}
				if depth == 0 {
					c.first = i
				}
				if c.score > best.score {
					best = c
				}
				if next.Phase != factories.WorkPhase || next.Players[j.seat].Done {
					continue
				}
				if k := fingerprint(&next.Players[j.seat]); !seen[k] {
					seen[k] = true
					children = append(children, c)
				}
			}
		}
		slices.SortStableFunc(children, func(a, b node) int { return compareDesc(a.score, b.score) })
		beam = append(beam[:0], children[:min(len(children), beamWidth)]...)
	}
	return best
}

// fingerprint identifies a seat's work-phase position, so plans that reach
// the same place in a different order are expanded once.
func fingerprint(p *factories.Player) uint64 {
	var buf []byte
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
	h := fnv.New64a()
	h.Write(buf)
	return h.Sum64()
}

// marketBonus adjusts a market move for what the score of the seat's own
// position cannot see: a gift should go to the opponent least likely to
// win.
func (g *greedy) marketBonus(v factories.View, m factories.Move) float64 {
	if m.Kind != factories.Hire || v.Seats < 2 || m.Opponent < 0 || m.Opponent >= len(v.Players) {
		return 0
	}
	lead := 0
	for _, p := range v.Players {
		lead = max(lead, p.Goods+p.Prestige)
	}
	o := v.Players[m.Opponent]
	return 0.001 * float64(lead-o.Goods-o.Prestige)
}
