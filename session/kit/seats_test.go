package kit_test

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/session/kit"
)

// TestSpeakerMarksTheBot: a line a bot played for a seat's person keeps
// the sentence that says so, and carries the seat's glyph like the
// person's own lines.
func TestSpeakerMarksTheBot(t *testing.T) {
	th := kit.NewTheme("mono", rendererFor(termenv.Ascii))
	s := kit.Seats{Names: []string{"alice", "carol"}, Viewer: 0}
	for line, want := range map[string]string{
		"the bot played for carol: built Manufactory": "♥ the bot played for carol: built Manufactory",
		"the bot played for you: built Golem":         "♠ the bot played for you: built Golem",
		"carol built Golem":                           "♥ carol built Golem",
		"You built Golem":                             "♠ You built Golem",
		"the round ends":                              "the round ends",
	} {
		if got := ansi.Strip(s.Speaker(th, line)); got != want {
			t.Errorf("%q reads %q, want %q", line, got, want)
		}
	}
}

// TestNameListGivesWay: the names shorten, then give way to a count of
// those left out, and a list with no name left is the count alone,
// never a gap before it.
func TestNameListGivesWay(t *testing.T) {
	s := kit.Seats{Names: []string{"alice", "bartholomew", "carol"}, Viewer: -1}
	with := func(list string) string { return "working: " + list }
	for w, want := range map[int]string{
		80: "working: alice, bartholomew, carol",
		31: "working: alice, barthol…, carol",
		30: "working: alice, barthol… +1",
		20: "working: alice +2",
		12: "working: +3",
	} {
		if got := kit.NameList(s, nil, []int{0, 1, 2}, w, with); got != want {
			t.Errorf("in %d: %q, want %q", w, got, want)
		}
	}
}
