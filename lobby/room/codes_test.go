package room

import "testing"

// Every letter is drawn from exactly as many byte values as every other,
// and the bytes that would tip the balance are drawn again: taking a byte
// modulo 31 would give the first 8 letters 9 bytes each and the rest 8.
func TestLetterMappingIsEven(t *testing.T) {
	per := map[byte]int{}
	refused := 0
	for b := range 256 {
		c, ok := letter(byte(b))
		if !ok {
			refused++
			continue
		}
		per[c]++
	}
	if len(per) != len(CodeAlphabet) || refused != 256%len(CodeAlphabet) {
		t.Fatalf("%d letters drawn, %d bytes refused", len(per), refused)
	}
	for _, c := range []byte(CodeAlphabet) {
		if per[c] != 256/len(CodeAlphabet) {
			t.Errorf("%c is drawn from %d byte values, want %d", c, per[c], 256/len(CodeAlphabet))
		}
	}
}

// Over many draws each letter comes up as often as chance allows. With
// the modulo bias the statistic would be over 1,000; without it, above 100
// about once in 300 million runs.
func TestCodesAreUniform(t *testing.T) {
	const per = 20_000
	n := per * len(CodeAlphabet)
	counts := map[string]int{}
	for _, c := range RandomLetters(n) {
		counts[string(c)]++
	}
	chi := 0.0
	for _, c := range CodeAlphabet {
		d := float64(counts[string(c)] - per)
		chi += d * d / per
	}
	if len(counts) != len(CodeAlphabet) || chi > 100 {
		t.Errorf("%d letters, chi-square %.1f over 30 degrees of freedom: not uniform (%v)", len(counts), chi, counts)
	}
}
