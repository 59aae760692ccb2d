package session

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session/kit"
)

// TestRecordText: five players' ratings wrap at 80 columns, best place
// first, the viewer as "you"; a game still being recorded says so; a
// solo game shows its record.
func TestRecordText(t *testing.T) {
	th := kit.NewTheme("mono", nil)
	room := lobby.RoomInfo{Result: &engine.Result{Ranks: []int{3, 1, 5, 2, 4}}}
	for i, name := range []string{"alice", "Bartholomew-Q", "carol", "dmitri", "Evangeline"} {
		room.Ratings = append(room.Ratings, players.SeatRating{Seat: i, Name: name, Rating: float64(10*i) - 12.25, Change: float64(i) - 2.04})
	}
	text := recordText(th, room, 0, 80)
	lines := strings.Split(text, "\n")
	if len(lines) < 2 {
		t.Fatalf("five ratings in one line:\n%s", text)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line of %d columns: %q", w, l)
		}
	}
	order := []string{"Bartholomew-Q -2.2 (-1.0)", "dmitri 17.8 (+1.0)", "you -12.2 (-2.0)", "Evangeline 27.8 (+2.0)", "carol 7.8 (-0.0)"}
	at := -1
	for _, want := range order {
		i := strings.Index(text, want)
		if i < at {
			t.Fatalf("%q is not in place order in:\n%s", want, text)
		}
		at = i
	}
	if got := recordText(th, lobby.RoomInfo{Over: true, Recording: true}, 0, 80); !strings.Contains(got, "being worked out") {
		t.Errorf("while recording: %q", got)
	}
	solo := lobby.RoomInfo{Solo: &store.SoloRecord{Opponent: "The Machine (hard)", Wins: 1, Losses: 2, Best: 41}}
	if got := recordText(th, solo, 0, 80); got != "Your record against The Machine (hard): 1 win, 2 losses, best score 41" {
		t.Errorf("solo: %q", got)
	}
	if got := recordText(th, lobby.RoomInfo{Over: true}, 0, 80); got != "" {
		t.Errorf("a game that counts nowhere: %q", got)
	}
}
