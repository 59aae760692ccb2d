package session

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/session/kit"
)

// TestJoinedWidthIsTheJoinsWidth: the header's parts measured one by
// one add up to their join's width, styled, wide or empty.
func TestJoinedWidthIsTheJoinsWidth(t *testing.T) {
	th := kit.NewTheme("default", nil)
	for _, parts := range [][]string{nil, {""}, {"a"}, {"", ""}, {th.Title.Render("smokestack"), "room ABCD", "漢字 ★", "", th.Accent.Render("⏱ carol 4:00")},
		{"e\u0301", "👩‍👩‍👧", "\x1b[1mbold"}} {
		if got, want := joinedWidth(parts), kit.Width(strings.Join(parts, " · ")); got != want {
			t.Errorf("joinedWidth(%q) = %d, want %d", parts, got, want)
		}
	}
}
