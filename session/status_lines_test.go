package session

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/session/kit"
)

// TestStatusLinesWrapWholeWords: a status that fits stays one line; a
// longer one wraps at its spaces, no word broken and every word kept;
// past maxStatus lines the last is marked cut.
func TestStatusLinesWrapWholeWords(t *testing.T) {
	if s, n := statusLines("nazwa ma od 2 do 16 znaków", 80); n != 1 || s != "nazwa ma od 2 do 16 znaków" {
		t.Errorf("a short status: %q, %d lines", s, n)
	}
	long := `"ZZZ" to nie kod pokoju: kod ma 6 liter i cyfr, zaproszenie do pokoju prywatnego 20`
	s, n := statusLines(long, 80)
	if n != 2 {
		t.Fatalf("%d lines: %q", n, s)
	}
	var words []string
	for _, l := range strings.Split(s, "\n") {
		if kit.Width(l) > 80 {
			t.Errorf("a line %d wide: %q", kit.Width(l), l)
		}
		words = append(words, strings.Fields(l)...)
	}
	if got := strings.Join(words, " "); got != long {
		t.Errorf("the words changed: %q", got)
	}
	s, n = statusLines(strings.Repeat("слово ", 60), 80)
	if lines := strings.Split(s, "\n"); n != maxStatus || len(lines) != maxStatus || !strings.HasSuffix(lines[maxStatus-1], "…") {
		t.Errorf("a status past %d lines: %d lines, %q", maxStatus, n, s)
	}
}
