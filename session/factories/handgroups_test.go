package factories

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
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
