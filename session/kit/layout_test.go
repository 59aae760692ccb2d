package kit

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// TestWrapKeepsIDsWhole: a card id is one word, whatever lipgloss does
// with hyphens (issue 25, point 13).
func TestWrapKeepsIDsWhole(t *testing.T) {
	text := "bob received 4 coal in compensation for mine-05 (disc 1)"
	for w := 20; w <= 60; w++ {
		for _, l := range strings.Split(Wrap(text, w), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "mine-") {
				t.Fatalf("at %d columns the id breaks at its hyphen:\n%s", w, Wrap(text, w))
			}
		}
		if !strings.Contains(Wrap(text, w), "mine-05") {
			t.Fatalf("at %d columns mine-05 is not whole:\n%s", w, Wrap(text, w))
		}
	}
}

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

// TestColumnsFitsEachBlock holds Columns to its promise: each block
// fitted to its width and h lines, the rows joined with one space.
func TestColumnsFitsEachBlock(t *testing.T) {
	blocks := []string{"", "a", "a\nb", "long line here\nx\n", "\x1b[1m★★★★★★★\x1b[0m\n漢字漢字\n\n\nz", "a\nb\nc\nd\ne\nf"}
	for _, h := range []int{1, 2, 4} {
		for _, w := range [][]int{{3, 5}, {0, 4}, {6, 1}} {
			for _, a := range blocks {
				for _, b := range blocks {
					fa, fb := strings.Split(Fit(a, w[0], h), "\n"), strings.Split(Fit(b, w[1], h), "\n")
					var want []string
					for r := range h {
						want = append(want, fa[r]+" "+fb[r])
					}
					if got := Columns(h, w, []string{a}, []string{b}); got != strings.Join(want, "\n") {
						t.Errorf("Columns(%d, %v, %q, %q) = %q, want %q", h, w, a, b, got, strings.Join(want, "\n"))
					}
				}
			}
		}
	}
}

// TestColumnsJoinsParts holds a column given in parts to the column of
// its parts joined with line breaks.
func TestColumnsJoinsParts(t *testing.T) {
	parts := []string{"", "a", "a\nb", "long line here\nx\n", "\x1b[1m★★★\x1b[0m\n漢字"}
	for _, h := range []int{1, 3, 6, 9, 200} {
		for _, a := range parts {
			for _, b := range parts {
				for _, c := range [][]string{nil, {a}, {a, b}, {a, "", b}, {b, a, b}} {
					got := Columns(h, []int{4, 7}, c, []string{"z"})
					want := Columns(h, []int{4, 7}, []string{strings.Join(c, "\n")}, []string{"z"})
					if len(c) == 0 {
						want = Columns(h, []int{4, 7}, []string{""}, []string{"z"})
					}
					if got != want {
						t.Errorf("Columns(%d, %q) = %q, want %q", h, c, got, want)
					}
				}
			}
		}
	}
}

// TestGridCopiesFittedParts: a Grid whose parts are fitted to their
// column's width (FitLines) and marked so writes what it writes of them
// unfitted and unmarked.
func TestGridCopiesFittedParts(t *testing.T) {
	parts := []string{"", "a", "a\nb", "long line here\nx\n", "\x1b[1m★★★\x1b[0m\n漢字"}
	widths := []int{4, 7}
	fit := func(p string, w int) string { return FitLines(strings.Split(p, "\n"), w) }
	for _, h := range []int{1, 3, 6, 9} {
		for _, a := range parts {
			for _, b := range parts {
				for mask := range uint64(8) {
					left := []string{a, "", b}
					fitted := slices.Clone(left)
					for i := range fitted {
						if mask&(1<<i) != 0 {
							fitted[i] = fit(fitted[i], widths[0])
						}
					}
					right := []string{b, a}
					want := Grid{H: h, Widths: widths, Cols: [][]string{left, right}}.String()
					got := Grid{H: h, Widths: widths, Cols: [][]string{fitted, {fit(b, 7), a}}, Fitted: []uint64{mask, 0b1}}.String()
					if got != want {
						t.Errorf("h %d, %q and %q, fitted %03b: %q, want %q", h, a, b, mask, got, want)
					}
				}
			}
		}
	}
}

// TestRowsFitsEachBlock holds Rows to fitting each block as Fit does.
func TestRowsFitsEachBlock(t *testing.T) {
	blocks := []string{"", "a", "a\nb", "long line here\nx\n", "\x1b[1m★★★★★★★\x1b[0m\n漢字漢字\n\n\nz"}
	for _, w := range []int{0, 3, 8} {
		for _, hs := range [][]int{{1, 1}, {0, 3}, {2, 1}} {
			for _, a := range blocks {
				for _, b := range blocks {
					parts := []string{Fit(a, w, hs[0]), Fit(b, w, hs[1])}
					want := strings.Join(parts, "\n")
					if got := Rows(w, Row{Text: a, H: hs[0]}, Row{Text: b, H: hs[1]}); got != want {
						t.Errorf("Rows(%d, %v, %q, %q) = %q, want %q", w, hs, a, b, got, want)
					}
					// A block already fitted is copied as it is.
					fa, fb := Row{Text: parts[0], H: hs[0], Fitted: true}, Row{Text: parts[1], H: hs[1], Fitted: true}
					if got := Rows(w, fa, fb); got != want {
						t.Errorf("Rows(%d, fitted %q, %q) = %q, want %q", w, parts[0], parts[1], got, want)
					}
				}
			}
		}
	}
}

// lipglossWrap is Wrap as it was, through lipgloss, its hyphens and the
// spaces after numbers kept from breaking: what Wrap must give.
func lipglossWrap(text string, w int) string {
	kept := strings.ReplaceAll(text, "-", nbHyphen)
	kept, _ = glueNumbers(kept)
	out := lipgloss.NewStyle().Width(w).Render(kept)
	return strings.ReplaceAll(strings.ReplaceAll(out, nbHyphen, "-"), nbSpace, " ")
}

// TestWrapIsLipgloss holds Wrap to lipgloss's wrapping at a width, over
// texts made to catch a shortcut out: styled words, ids with hyphens,
// wide runes, tabs, line breaks, runs of spaces, words wider than w.
func TestWrapIsLipgloss(t *testing.T) {
	words := []string{"the", "marketplace", "mine-05", "\x1b[1mbold\x1b[0m", "\x1b[38;5;3m★ prestige\x1b[m", "漢字", "Żniwiarz",
		"a\tb", "line\nbreak", "crlf\r\nend", "  ", "", "-", "x-y-z", "averyveryverylongwordindeed", "é", "→", "·"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var parts []string
		for range 1 + rnd.IntN(9) {
			parts = append(parts, words[rnd.IntN(len(words))])
		}
		text := strings.Join(parts, []string{" ", "  ", "", " · "}[rnd.IntN(4)])
		for _, w := range []int{-1, 0, 1, 3, 7, 12, 20, 41} {
			if got, want := Wrap(text, w), lipglossWrap(text, w); got != want {
				t.Fatalf("Wrap(%q, %d) =\n%q\nwant\n%q", text, w, got, want)
			}
		}
	}
}

// A grid row is written in place as its String would be copied: a board
// that is Laid draws the same frame as one whose Draw gives the string.
func TestRowsWriteAGridAsItsString(t *testing.T) {
	parts := []string{"", "a", "a\nb", "long line here\nx\n", "\x1b[1m★★★★★★★\x1b[0m\n漢字漢字\n\n\nz"}
	for _, h := range []int{1, 2, 5} {
		for _, a := range parts {
			for _, b := range parts {
				g := Grid{H: h, Widths: []int{4, 7}, Cols: [][]string{{a, b}, {b}}}
				head := Row{Text: "head", H: 1}
				want := Rows(12, head, Row{Text: g.String(), H: h, Fitted: true}, head)
				if got := string(AppendRows([]byte("kept"), 12, head, Row{Grid: &g, H: h}, head)); got != "kept"+want {
					t.Errorf("the grid %q, %q in %d rows was written\n%q\nwant\n%q", a, b, h, got, "kept"+want)
				}
			}
		}
	}
}

// TestWrapKeepsANumberWithItsWord: a line never ends at a space after a
// number, so a count keeps its noun and a die list stays whole (the
// Russian log read "1" / "энергии" and "3 6 5" / "5").
func TestWrapKeepsANumberWithItsWord(t *testing.T) {
	for _, c := range []struct {
		text string
		w    int
	}{
		{"Вы получаете 1 металл и 1 энергии", 30},
		{"♠ Вы бросаете 3 6 5 5 и ставите", 18},
		{"received 12 coal and 3 iron", 12},
	} {
		for _, line := range strings.Split(Wrap(c.text, c.w), "\n") {
			line = strings.TrimRight(line, " ")
			if line != "" && strings.ContainsRune("0123456789", rune(line[len(line)-1])) {
				t.Errorf("Wrap(%q, %d) ends a line at a number: %q", c.text, c.w, Wrap(c.text, c.w))
			}
		}
		if got := strings.Join(strings.Fields(Wrap(c.text, c.w)), " "); got != c.text {
			t.Errorf("Wrap(%q, %d) lost text: %q", c.text, c.w, got)
		}
	}
}

// TestFitHeight holds FitHeight, fitted to a width, to Fit: a block cut
// or padded to its lines alone places in a Grid's column as its Fit does.
func TestFitHeight(t *testing.T) {
	for _, block := range []string{"", "a", "a\n", "\n", "a\nbb\nccc", "a\n\n\nb\n", "\x1b[1mMOVES\x1b[0m\n▸ take ★ a very long line indeed\n  pass"} {
		for h := 0; h <= 6; h++ {
			for _, w := range []int{0, 1, 4, 12} {
				got := FitHeight(block, h)
				if h >= 1 {
					got = FitLines(strings.Split(got, "\n"), w)
				}
				if want := Fit(block, w, h); got != want {
					t.Errorf("FitHeight(%q, %d) fitted to %d = %q; Fit gives %q", block, h, w, got, want)
				}
			}
		}
	}
}

// TestCutKeptAsCut holds a kept cut to the cut made afresh, asked again
// and at other widths: a line cut to one width is never given for
// another.
func TestCutKeptAsCut(t *testing.T) {
	for _, line := range []string{"you are done: waiting for the others", "\x1b[2m★ dim and long\x1b[0m tail", "漢字漢字漢字 wide"} {
		for range 2 {
			for w := 1; w < Width(line); w++ {
				want := ansi.Truncate(line, w-1, "") + "…"
				if got, gw := cut(line, w); got != want || gw != Width(want) {
					t.Fatalf("cut(%q, %d) = %q, %d, want %q, %d", line, w, got, gw, want, Width(want))
				}
				if got, _ := fitLine(line, w); got != want {
					t.Fatalf("fitLine(%q, %d) = %q, want %q", line, w, got, want)
				}
			}
		}
	}
}
