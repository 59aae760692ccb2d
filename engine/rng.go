package engine

import "math/bits"

// RNG is a small seeded generator (SplitMix64) whose whole state is one
// exported number, so it serialises with the game state and a restored game
// continues with exactly the same rolls and shuffles.
type RNG struct {
	State uint64 `json:"state"`
}

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{State: seed} }

// Uint64 returns the next pseudo-random number.
func (r *RNG) Uint64() uint64 {
	r.State += 0x9e3779b97f4a7c15
	z := r.State
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a number in [0, n). n must be positive.
func (r *RNG) Intn(n int) int {
	// Lemire's multiply-shift keeps the result unbiased enough for dice and
	// shuffles without a rejection loop whose length depends on the value.
	hi, _ := bits.Mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// Die rolls a six-sided die.
func (r *RNG) Die() int { return r.Intn(6) + 1 }

// Shuffle permutes n elements with swap (Fisher-Yates).
func (r *RNG) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Intn(i+1))
	}
}
