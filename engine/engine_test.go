package engine

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestRNGIsSplitMix64 pins the generator to the published SplitMix64
// sequence: stored games replay only if every roll stays the same forever.
func TestRNGIsSplitMix64(t *testing.T) {
	cases := []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}},
		{1234567, []uint64{0x599ed017fb08fc85, 0x2c73f08458540fa5, 0x883ebce5a3f27c77}},
	}
	for _, tc := range cases {
		r := NewRNG(tc.seed)
		for i, want := range tc.want {
			if got := r.Uint64(); got != want {
				t.Errorf("seed %d, output %d: %#x; want %#x", tc.seed, i, got, want)
			}
		}
	}
}

func TestRNGStateSerialises(t *testing.T) {
	r := NewRNG(99)
	r.Uint64()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back RNG
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if a, b := r.Uint64(), back.Uint64(); a != b {
			t.Fatalf("output %d after a JSON round trip: %d vs %d", i, a, b)
		}
	}
	// A copy is an independent generator at the same point.
	c := r
	if r.Die() != c.Die() {
		t.Errorf("a copied generator rolls differently")
	}
}

func TestIntnAndDie(t *testing.T) {
	r := NewRNG(7)
	for _, n := range []int{1, 2, 3, 6, 7, 74, 1000} {
		seen := make([]int, n)
		for range 200 * n {
			v := r.Intn(n)
			if v < 0 || v >= n {
				t.Fatalf("Intn(%d) = %d", n, v)
			}
			seen[v]++
		}
		for v, k := range seen {
			// 200 expected; a fair generator is nowhere near these bounds.
			if k < 100 || k > 300 {
				t.Errorf("Intn(%d) gave %d %d times in %d draws", n, v, k, 200*n)
			}
		}
	}
	faces := map[int]int{}
	for range 6000 {
		faces[r.Die()]++
	}
	for f := 1; f <= 6; f++ {
		if faces[f] < 800 || faces[f] > 1200 {
			t.Errorf("face %d came up %d times in 6000 rolls", f, faces[f])
		}
	}
	if len(faces) != 6 {
		t.Errorf("faces rolled: %v", faces)
	}
}

func TestShuffle(t *testing.T) {
	r := NewRNG(3)
	s := make([]int, 20)
	for i := range s {
		s[i] = i
	}
	orig := slices.Clone(s)
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	if slices.Equal(s, orig) {
		t.Errorf("20 elements shuffled into the same order")
	}
	if !slices.Equal(slices.Sorted(slices.Values(s)), orig) {
		t.Errorf("shuffle is not a permutation: %v", s)
	}
	// Same seed, same order.
	r2, s2 := NewRNG(3), slices.Clone(orig)
	r2.Shuffle(len(s2), func(i, j int) { s2[i], s2[j] = s2[j], s2[i] })
	if !slices.Equal(s, s2) {
		t.Errorf("the same seed shuffled differently")
	}
	// Every position of a 3-element shuffle is reachable.
	perms := map[[3]int]bool{}
	for seed := range uint64(200) {
		r := NewRNG(seed)
		p := [3]int{0, 1, 2}
		r.Shuffle(3, func(i, j int) { p[i], p[j] = p[j], p[i] })
		perms[p] = true
	}
	if len(perms) != 6 {
		t.Errorf("%d of 6 permutations of 3 seen", len(perms))
	}
	// Shuffling 0 or 1 elements never calls swap.
	r.Shuffle(0, func(i, j int) { t.Errorf("swap called for 0 elements") })
	r.Shuffle(1, func(i, j int) { t.Errorf("swap called for 1 element") })
}

func TestEventFor(t *testing.T) {
	e := Event{Seat: 2, Kind: "draw", Text: "drew 2 blueprints", Private: "drew Biolab and Dojo"}
	if got := e.For(2); got != e.Private {
		t.Errorf("the drawing seat reads %q", got)
	}
	for _, seat := range []int{0, 1, 3, Spectator} {
		if got := e.For(seat); got != e.Text {
			t.Errorf("seat %d reads %q; want the public text", seat, got)
		}
	}
	public := Event{Seat: 1, Kind: "take", Text: "took Dojo"}
	if public.For(1) != "took Dojo" {
		t.Errorf("an event without private text reads %q for its seat", public.For(1))
	}
	raw, _ := json.Marshal(public)
	if string(raw) != `{"seat":1,"kind":"take","text":"took Dojo"}` {
		t.Errorf("event JSON %s", raw)
	}
}

func TestReadOptions(t *testing.T) {
	opts := []Option{
		{Name: "difficulty", Seats: 1, Choices: []string{"easy", "medium", "hard"}, Default: "medium"},
		{Name: "rounds", Choices: []string{"4", "3"}},
	}
	cases := []struct {
		seats int
		raw   string
		want  map[string]string
		err   string
	}{
		{1, ``, map[string]string{"difficulty": "medium", "rounds": "4"}, ""},
		{1, `null`, map[string]string{"difficulty": "medium", "rounds": "4"}, ""},
		{1, `{"difficulty":"hard","rounds":"3"}`, map[string]string{"difficulty": "hard", "rounds": "3"}, ""},
		{3, `{}`, map[string]string{"rounds": "4"}, ""},
		{3, `{"difficulty":"hard"}`, nil, "--difficulty is only for games of 1 seat"},
		{1, `{"difficulty":"brutal"}`, nil, `--difficulty "brutal": choose easy, medium or hard`},
		{2, `{"speed":"fast","colour":"red"}`, nil, `this game has no option --colour`},
		{2, `{"rounds":3}`, nil, "game options must be a JSON object of strings"},
		{2, `[1]`, nil, "game options must be a JSON object of strings"},
	}
	for _, tc := range cases {
		got, err := ReadOptions(opts, tc.seats, json.RawMessage(tc.raw))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ReadOptions(%d, %s) error %v; want %q", tc.seats, tc.raw, err, tc.err)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tc.want) {
			t.Errorf("ReadOptions(%d, %s) = %v, %v; want %v", tc.seats, tc.raw, got, err, tc.want)
		}
	}
}

func TestResultWon(t *testing.T) {
	r := &Result{Scores: []int{10, 12, 12}, Ranks: []int{3, 1, 1}, Winners: []int{1, 2}}
	for seat, want := range []bool{false, true, true} {
		if r.Won(seat) != want {
			t.Errorf("Won(%d) = %v", seat, !want)
		}
	}
	var none *Result
	if none.Won(0) {
		t.Error("a nil result has a winner")
	}
}
