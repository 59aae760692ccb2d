package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/session/kit"
)

// recordText words what a finished game did to its players' records, for
// the end of the game: each person's rating and its change ("ratings:
// alice 3.4 (+3.4) · bob -1.8 (-1.8)"), wrapped to w; the solo record
// against the game's own opponent; or that it is being worked out. Empty
// for a game that counts nowhere.
func recordText(t kit.Theme, room lobby.RoomInfo, me int, w int) string {
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
	// In the order of the scores above: best place first.
	ratings := slices.Clone(room.Ratings)
	if res := room.Result; res != nil {
		slices.SortStableFunc(ratings, func(a, b players.SeatRating) int {
			if a.Seat < len(res.Ranks) && b.Seat < len(res.Ranks) {
				return res.Ranks[a.Seat] - res.Ranks[b.Seat]
			}
			return 0
		})
	}
	onLine := 0 // entries on the last line
	for _, r := range ratings {
		name := r.Name
		if r.Seat == me {
			name = "you"
		}
		change := t.Good.Render(fmt.Sprintf("(%+.1f)", r.Change))
		if r.Change < 0 {
			change = t.Bad.Render(fmt.Sprintf("(%+.1f)", r.Change))
		}
		entry := fmt.Sprintf("%s %.1f %s", name, r.Rating, change)
		sep := " "
		if onLine > 0 {
			sep = " · "
		}
		if ew := ansi.StringWidth(sep + entry); onLine > 0 && width+ew > w {
			// Go on below, lined up under the first entry.
			lines = append(lines, strings.Repeat(" ", len(head)))
			width, onLine, sep = len(head), 0, " "
		}
		lines[len(lines)-1] += sep + entry
		width += ansi.StringWidth(sep + entry)
		onLine++
	}
	return strings.Join(lines, "\n")
}

// plural words a count of things: "1 seat", "2 seats".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
