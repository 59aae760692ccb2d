package kit

import (
	"strings"
	"testing"
)

// TestFitKeepsAFittedBlock holds Fit's shortcut, a block already h lines
// of w columns returned as it is, to what fitting it line by line gives.
func TestFitKeepsAFittedBlock(t *testing.T) {
	for _, tc := range []struct {
		block string
		w, h  int
	}{
		{"abc\ndef", 3, 2}, {"abc\nde", 3, 2}, {"abc\ndef\nghi", 3, 2}, {"abc", 3, 2}, {"abcd\nefg", 3, 2},
		{"\x1b[1m★bc\x1b[0m\n漢x", 3, 2}, {"", 0, 1}, {"", 1, 1}, {"a\n", 1, 2},
	} {
		lines := strings.Split(tc.block, "\n")
		if len(lines) > tc.h {
			lines = lines[:tc.h]
		}
		for len(lines) < tc.h {
			lines = append(lines, "")
		}
		if got, want := Fit(tc.block, tc.w, tc.h), FitLines(lines, tc.w); got != want {
			t.Errorf("Fit(%q, %d, %d) = %q, want %q", tc.block, tc.w, tc.h, got, want)
		}
	}
}
