package session

import (
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
		return t.Dim.Render(t.L.T("session.records.working"))
	case room.Solo != nil:
		s := room.Solo
		return t.L.T("session.records.solo", "Opponent", OpponentName(t.L, room.Game, s.Opponent), "Wins", t.L.N("session.records.wins", s.Wins),
			"Losses", t.L.N("session.records.losses", s.Losses), "Best", s.Best)
	case len(room.Ratings) == 0:
		return ""
	}
	head := t.L.T("session.records.ratings")
	lines := []string{head}
	width := kit.Width(head)
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
			name = t.L.T("session.records.you")
		}
		change := t.Good.Render("(" + t.L.Signed(r.Change, 1) + ")")
		if r.Change < 0 {
			change = t.Bad.Render("(" + t.L.Signed(r.Change, 1) + ")")
		}
		entry := name + " " + t.L.Decimal(r.Rating, 1) + " " + change
		sep := " "
		if onLine > 0 {
			sep = " · "
		}
		if ew := ansi.StringWidth(sep + entry); onLine > 0 && width+ew > w {
			// Go on below, lined up under the first entry.
			lines = append(lines, strings.Repeat(" ", kit.Width(head)))
			width, onLine, sep = kit.Width(head), 0, " "
		}
		lines[len(lines)-1] += sep + entry
		width += ansi.StringWidth(sep + entry)
		onLine++
	}
	return strings.Join(lines, "\n")
}
