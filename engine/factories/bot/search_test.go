package bot

import (
	"encoding/binary"
	"hash/fnv"
	"slices"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// TestSelectBestKeepsTheStableOrder: the beam keeps the best k children
// selected and then sorted, which must be exactly the first k of a stable
// sort by score (ties in the order found), whatever the ties.
func TestSelectBestKeepsTheStableOrder(t *testing.T) {
	rng := engine.NewRNG(1)
	for trial := range 500 {
		n := 1 + int(rng.Uint64()%300)
		nodes := make([]node, n)
		for i := range nodes {
			// Few distinct scores, so ties are common.
			nodes[i] = node{first: i, score: float64(rng.Uint64() % uint64(1+trial%9)), seq: i}
		}
		want := slices.Clone(nodes)
		slices.SortStableFunc(want, func(a, b node) int { return compareDesc(a.score, b.score) })
		k := int(rng.Uint64() % uint64(n+2))
		keep := min(k, n)
		selectBest(nodes, keep)
		slices.SortFunc(nodes[:keep], byScoreThenSeq)
		if !slices.Equal(nodes[:keep], want[:keep]) {
			t.Fatalf("trial %d: n %d, k %d: kept %v, want %v", trial, n, k, nodes[:keep], want[:keep])
		}
	}
}

// TestFingerprintsSet: the set reports each key new once a generation,
// and a reset forgets them, through growth too.
func TestFingerprintsSet(t *testing.T) {
	var f fingerprints
	for gen := range 3 {
		f.reset()
		for k := range uint64(1000) {
			if !f.add(k * 7919) {
				t.Fatalf("generation %d: key %d not new", gen, k)
			}
		}
		for k := range uint64(1000) {
			if f.add(k * 7919) {
				t.Fatalf("generation %d: key %d new twice", gen, k)
			}
		}
	}
}

// TestFnvVarintIsFNVOfVarints: fingerprints hash what they always hashed,
// FNV-1a over the values' varint encoding, negative and large ones too.
func TestFnvVarintIsFNVOfVarints(t *testing.T) {
	values := []int{0, 1, -1, 63, 64, -64, -65, 127, 128, 300, -300, 1 << 20, -(1 << 40), 73}
	h := fnv.New64a()
	var buf []byte
	got := uint64(14695981039346656037)
	for _, v := range values {
		buf = binary.AppendVarint(buf[:0], int64(v))
		h.Write(buf)
		got = fnvVarint(got, v)
		if want := h.Sum64(); got != want {
			t.Fatalf("after %d: %x, want %x", v, got, want)
		}
	}
}
