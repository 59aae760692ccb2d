package games

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/smokestack/smokestack/engine"
)

// TestOptionsExplainThemselves: every game option has a line of help that
// fits the new-room form's line at 80 columns, and an option that needs
// another's value names one that exists (issue 25, point 10).
func TestOptionsExplainThemselves(t *testing.T) {
	const most = 76 // the form indents the line by two, and keeps a margin
	for _, g := range All() {
		opts := g.Rules.Options()
		for _, o := range opts {
			if n := utf8.RuneCountInString(o.About); o.About == "" || n > most {
				t.Errorf("%s --%s: about is %d runes, want 1 to %d: %q", g.Name(), o.Name, n, most, o.About)
			}
			if o.Needs == nil {
				continue
			}
			i := slices.IndexFunc(opts, func(p engine.Option) bool { return p.Name == o.Needs.Option })
			if i < 0 || !slices.Contains(opts[i].Choices, o.Needs.Value) {
				t.Errorf("%s --%s needs %+v, which the game has no choice of", g.Name(), o.Name, *o.Needs)
			}
		}
	}
}
