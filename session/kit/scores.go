package kit

import (
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
)

// ScoreRow is one seat's line in a game's final scores.
type ScoreRow struct {
	Rank int
	// Name is the game's word for the viewer ("You"), Seats.Name
	// otherwise.
	Name string
	// You is true for the viewer's row.
	You bool
	// Score sets the bar's length.
	Score int
	// Detail follows the bar: the score and what it is made of.
	Detail string
	Winner bool
}

// ScoreChart draws a game's final scores in width w: who won ("★ alice
// wins!", "★ You win!", "★ alice and bob share the win!" in the theme's
// language), a blank line, then a bar per row in the order given, best
// first.
func ScoreChart(t Theme, rows []ScoreRow, w int) []string {
	best, nameW, detailW := 1, 6, 0
	var winners []ScoreRow
	for _, r := range rows {
		best = max(best, r.Score)
		nameW = max(nameW, len([]rune(r.Name)))
		detailW = max(detailW, Width(r.Detail))
		if r.Winner {
			winners = append(winners, r)
		}
	}
	nameW = min(nameW, 20)
	lines := []string{t.Good.Render("★ " + winnersText(t, winners)), ""}
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

// winnersText words who won: "alice wins!", "You win!", "alice and bob
// share the win!".
func winnersText(t Theme, winners []ScoreRow) string {
	switch {
	case len(winners) == 1 && winners[0].You:
		return t.L.T("session.scores.youWin")
	case len(winners) == 1:
		return t.L.T("session.scores.wins", "Name", winners[0].Name)
	}
	names := make([]string, len(winners))
	for i, r := range winners {
		names[i] = r.Name
	}
	return t.L.T("session.scores.shareWin", "Names", And(t.L, names))
}

// And joins items as a list in p's language: "A, B and C".
func And(p *lang.Printer, items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	last := len(items) - 1
	return p.T("session.and", "List", strings.Join(items[:last], ", "), "Last", items[last])
}
