package factories

import (
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/session/kit"
)

// TestHeaderCountsWhoDoesNotFit: five seats working at once, in the
// room an 80-column header leaves the game: the names shorten, then
// those that do not fit are counted, never cut mid-name ("rando…") and
// never wider than asked (issue 36, point 9).
func TestHeaderCountsWhoDoesNotFit(t *testing.T) {
	names := []string{"alice", "random bot 2", "random bot 3", "random bot 4", "random bot 5"}
	v := factories.View{Seat: 0, Seats: 5, Round: 3, Phase: factories.WorkPhase}
	for seat := range names {
		v.Players = append(v.Players, factories.PlayerView{Seat: seat})
	}
	b := &board{v: &v}
	th := kit.NewTheme("mono", nil)
	s := kit.Seats{Names: names}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{200, "working: you, random bot 2, random bot 3, random bot 4, random bot 5"},
		{80, "working: you, random 2, random 3, random 4, random 5"},
		{60, "working: you, random 2, random 3 +2"},
		{40, "working: you +4"},
	} {
		got := b.HeaderIn(th, s, tc.w)
		if !strings.HasSuffix(got, tc.want) || kit.Width(got) > tc.w {
			t.Errorf("in %d columns: %q, want it to end %q", tc.w, got, tc.want)
		}
	}
}
