package kit

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// ScoreRow is one seat's line in a game's final scores.
type ScoreRow struct {
	Rank int
	// Name is "You" for the viewer, as Seats.Name otherwise.
	Name string
	// Score sets the bar's length.
	Score int
	// Detail follows the bar: the score and what it is made of.
	Detail string
	Winner bool
}

// ScoreChart draws a game's final scores in width w: who won ("★ alice
// wins!", "★ You win!", "★ alice and bob share the win!"), a blank line,
// then a bar per row in the order given, best first.
func ScoreChart(t Theme, rows []ScoreRow, w int) []string {
	best, nameW, detailW := 1, 6, 0
	var winners []string
	for _, r := range rows {
		best = max(best, r.Score)
		nameW = max(nameW, len([]rune(r.Name)))
		detailW = max(detailW, ansi.StringWidth(r.Detail))
		if r.Winner {
			winners = append(winners, r.Name)
		}
	}
	nameW = min(nameW, 20)
	verb := "wins"
	if len(winners) > 1 {
		verb = "share the win"
	} else if len(winners) == 1 && winners[0] == "You" {
		verb = "win"
	}
	lines := []string{t.Good.Render("★ " + strings.Join(winners, " and ") + " " + verb + "!"), ""}
	barW := max(10, min(60, w-nameW-detailW-6))
	for _, r := range rows {
		n := max(0, r.Score) * barW / best
		bar := t.Bar.Render(strings.Repeat("█", n)) + strings.Repeat("·", barW-n)
		name := r.Name
		if rs := []rune(name); len(rs) > nameW {
			name = string(rs[:nameW-1]) + "…"
		}
		lines = append(lines, fmt.Sprintf("%d. %-*s %s %s", r.Rank, nameW, name, bar, r.Detail))
	}
	return lines
}
