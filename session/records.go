package session

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/lobby"
)

// recordText words what a finished game did to its players' records, for
// the end of the game: each person's rating and its change ("ratings:
// alice 3.4 (+3.4) · bob -1.8 (-1.8)"), wrapped to w; the solo record
// against the game's own opponent; or that it is being worked out. Empty
// for a game that counts nowhere.
func recordText(t Theme, room lobby.RoomInfo, me int, w int) string {
	switch {
	case room.Recording:
		return t.Dim.Render("ratings: being worked out…")
	case room.Solo != nil:
		s := room.Solo
		return fmt.Sprintf("Your record against %s: %s, %s, best score %d", s.Opponent,
			plural(s.Wins, "win", "wins"), plural(s.Losses, "loss", "losses"), s.Best)
	case len(room.Ratings) == 0:
		return ""
	}
	head := "ratings:"
	lines := []string{head}
	width := len(head)
	for _, r := range room.Ratings {
		name := r.Name
		if r.Seat == me {
			name = "you"
		}
		change := t.Good.Render(fmt.Sprintf("(%+.1f)", r.Change))
		if r.Change < 0 {
			change = t.Bad.Render(fmt.Sprintf("(%+.1f)", r.Change))
		}
		entry := fmt.Sprintf("%s %.1f %s", name, r.Rating, change)
		ew := ansi.StringWidth(entry)
		if width+3+ew > w && width > len(head) {
			lines = append(lines, "  ")
			width = 2
		}
		sep := " "
		if width > 2 && width > len(head) {
			sep = " · "
		}
		lines[len(lines)-1] += sep + entry
		width += ansi.StringWidth(sep) + ew
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
