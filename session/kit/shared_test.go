package kit

import "testing"

// A Shared value is made once and kept; a full Shared starts again.
func TestSharedKeepsWhatItMade(t *testing.T) {
	s := NewShared[int, string](3)
	made := 0
	get := func(k int) string {
		return s.Get(k, func() string { made++; return string(rune('a' + k)) })
	}
	for range 2 {
		for k := range 3 {
			if got := get(k); got != string(rune('a'+k)) {
				t.Fatalf("Get(%d) = %q", k, got)
			}
		}
	}
	if made != 3 {
		t.Fatalf("made %d values for 3 keys asked twice, want 3", made)
	}
	get(3) // full: starts again with 3 alone
	if get(3); made != 4 {
		t.Fatalf("made %d, want 4: the fourth key is kept", made)
	}
	if get(0); made != 5 {
		t.Fatalf("made %d, want 5: a full Shared forgets the rest", made)
	}
}

// A Kept drawing is drawn again only under another key, an empty one
// included.
func TestKeptDrawsOncePerKey(t *testing.T) {
	var k Kept[int]
	made := 0
	draw := func() string { made++; return "" }
	for _, key := range []int{1, 1, 2, 2, 1} {
		k.Get(key, draw)
	}
	if made != 3 {
		t.Fatalf("drew %d times for keys 1 1 2 2 1, want 3", made)
	}
}
