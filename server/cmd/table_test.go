package cmd

import (
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
)

// A table lays ASCII out as text/tabwriter does, and keeps its columns
// in line past wide letters, which tabwriter counts as one column each.
func TestTable(t *testing.T) {
	ascii := "CODE\tGAME\tPLAYERS\tSTATUS\nAB12CD\tfactories\talice, (free)\twaiting\nZZ\tfurnace\tbob\tplaying\n\nheading\nX\tY\tlast\n"
	var want, got strings.Builder
	tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, ascii)
	tw.Flush()
	tb := newTable(&got)
	fmt.Fprint(tb, ascii)
	if err := tb.Flush(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("ASCII laid out as\n%s\nwant, as tabwriter does,\n%s", got.String(), want.String())
	}

	got.Reset()
	tb = newTable(&got)
	fmt.Fprint(tb, "CODE\tPLAYERS\tSTATUS\nAB12CD\t韓梅梅李雷韓梅梅\twaiting\nZZ\tWwwwwwwwwwwwwwww\tplaying\n")
	tb.Flush()
	lines := strings.Split(got.String(), "\n")
	col := func(l string) int { // the column the status starts at
		for _, s := range []string{"waiting", "playing", "STATUS"} {
			if i := strings.Index(l, s); i >= 0 {
				return displayWidth(l[:i])
			}
		}
		return -1
	}
	if a, b, c := col(lines[0]), col(lines[1]), col(lines[2]); a != b || b != c {
		t.Errorf("the status column starts at %d, %d and %d:\n%s", a, b, c, got.String())
	}
}

// displayWidth counts the wide letters of the test's names as two.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x1100 && (r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) || (r >= 0xf900 && r <= 0xfaff) || (r >= 0xff00 && r <= 0xff60)) {
			n += 2
		} else {
			n++
		}
	}
	return n
}
