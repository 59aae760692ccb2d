package bot

import (
	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// random plays a uniformly random legal move: the baseline every other bot
// must beat, and a cheap way to walk the rules into odd corners.
type random struct {
	rng engine.RNG
}

func newRandom(seed uint64) Bot { return &random{rng: engine.NewRNG(seed)} }

func (*random) Name() string { return "random" }

func (r *random) Choose(v furnace.View) furnace.Move {
	if len(v.Legal) == 0 {
		return furnace.Move{}
	}
	return v.Legal[r.rng.Intn(len(v.Legal))]
}
