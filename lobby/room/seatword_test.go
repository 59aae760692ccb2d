package room

import "testing"

func TestSplitSeatWord(t *testing.T) {
	for _, tc := range []struct{ typed, invite, word string }{
		{"K7PXMA", "K7PXMA", ""},
		{"K7PXMA maple-42", "K7PXMA", "maple-42"},
		{"  k7p xma   Maple-420 ", "k7p xma", "maple-420"},
		{"K7PXMA-ABCDEFGHJKMNP maple-42", "K7PXMA-ABCDEFGHJKMNP", "maple-42"},
		// A private room's invite typed with a space is no seat word.
		{"K7PXMA ABCDEFGHJKMNP", "K7PXMA ABCDEFGHJKMNP", ""},
		{"K7PXMA ABCDEF-23456789234", "K7PXMA ABCDEF-23456789234", ""},
		{"K7PXMA maple", "K7PXMA maple", ""},
	} {
		invite, word := SplitSeatWord(tc.typed)
		if invite != tc.invite || word != tc.word {
			t.Errorf("SplitSeatWord(%q) = %q, %q; want %q, %q", tc.typed, invite, word, tc.invite, tc.word)
		}
	}
	seen := map[string]bool{}
	for range 200 {
		w := newSeatWord()
		if invite, word := SplitSeatWord("K7PXMA " + w); invite != "K7PXMA" || word != w {
			t.Fatalf("a drawn word %q does not read back: %q, %q", w, invite, word)
		}
		seen[w] = true
	}
	if len(seen) < 190 {
		t.Errorf("200 draws gave only %d different words", len(seen))
	}
}
