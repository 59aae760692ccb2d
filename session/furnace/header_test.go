package furnace

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// TestHeaderCountsWhoDoesNotFit: the seats still producing shorten, then
// are counted, in the room the header leaves, never cut mid-name (issue
// 36, point 9's class, in Furnace).
func TestHeaderCountsWhoDoesNotFit(t *testing.T) {
	names := []string{"alice", "greedy bot 2", "greedy bot 3", "greedy bot 4"}
	v := furnace.View{Phase: furnace.ProductionPhase, Round: 2, Config: furnace.Config{Players: 4, Rounds: 4}, Players: make([]furnace.Player, 4)}
	v.Players[0].Done = true
	b := &board{v: &v}
	th := kit.NewTheme("mono", nil)
	s := kit.Seats{Names: names, Viewer: 0}
	wide := b.HeaderIn(th, s, 200)
	if !strings.Contains(wide, "greedy bot 2, greedy bot 3, greedy bot 4") {
		t.Fatalf("at 200 columns: %q", wide)
	}
	for _, w := range []int{60, 45} {
		got := b.HeaderIn(th, s, w)
		if kit.Width(got) > w || !strings.Contains(got, "+") && !strings.Contains(got, "greedy 4") {
			t.Errorf("in %d columns: %q", w, got)
		}
	}
}
