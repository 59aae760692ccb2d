package factories

import (
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// TestHandKeepsItsToolsWhenShort: a hand of 10 in the few lines an 80x24
// board leaves it stays grouped by tool, each tool's names shortened
// with a mark, rather than turning into one list of names (issue 36,
// point 9).
func TestHandKeepsItsToolsWhenShort(t *testing.T) {
	th := kit.NewTheme("mono", nil)
	var hand []factories.Card
	tools := map[factories.Tool]bool{}
	for _, b := range factories.Blueprints() {
		if len(hand) == 10 {
			break
		}
		if cards := factories.CardsNamed(b.Name); len(cards) > 0 {
			hand = append(hand, cards[0])
			tools[b.Tool] = true
		}
	}
	lines := handLines(th, hand, 41, len(tools))
	if len(lines) > len(tools) {
		t.Fatalf("%d lines, asked %d:\n%s", len(lines), len(tools), strings.Join(lines, "\n"))
	}
	text := strings.Join(lines, "\n")
	for tool := range tools {
		if !strings.Contains(text, toolText(th, tool)+": ") {
			t.Errorf("the hand lost its %v group:\n%s", tool, text)
		}
	}
	if !strings.Contains(text, "more") {
		t.Errorf("a shortened hand without its mark:\n%s", text)
	}
}

// TestHandKeptAsDrawn holds the hand a board keeps to the hand drawn
// afresh through a run of asks that change one thing at a time: the
// cards, the width, the lines, the theme and the language.
func TestHandKeptAsDrawn(t *testing.T) {
	var hand []factories.Card
	for _, b := range factories.Blueprints() {
		if cards := factories.CardsNamed(b.Name); len(cards) > 0 && len(hand) < 8 {
			hand = append(hand, cards[0])
		}
	}
	mono, dflt := kit.NewTheme("mono", nil), kit.NewTheme("default", nil)
	asks := []struct {
		t      kit.Theme
		hand   []factories.Card
		w, max int
	}{
		{mono, hand, 41, 3}, {mono, hand, 41, 3}, {mono, hand[:5], 41, 3}, {mono, hand[:5], 41, 2},
		{mono, hand[:5], 30, 2}, {dflt, hand[:5], 30, 2}, {dflt.In(lang.For(lang.Polish)), hand[:5], 30, 2},
		{dflt, nil, 30, 2}, {dflt, hand, 30, 2},
	}
	var k handKept
	for i, a := range asks {
		if got, want := k.lines(a.t, a.hand, a.w, a.max), handLines(a.t, a.hand, a.w, a.max); !slices.Equal(got, want) {
			t.Fatalf("ask %d: the kept hand is\n%s\nwant\n%s", i, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
