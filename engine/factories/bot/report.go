package bot

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteReport prints the batch for people: who won, how the games ended,
// and how often each blueprint and contractor was used.
func (res Result) WriteReport(w io.Writer) error {
	fmt.Fprintf(w, "%d games, %d players, seed %d", res.Games, res.Players, res.Seed)
	if res.Difficulty != "" {
		fmt.Fprintf(w, ", The Machine on %s", res.Difficulty)
	}
	fmt.Fprintf(w, "\naverage %.1f rounds, %.0f moves a game\n", res.AvgRounds, res.AvgMoves)
	fmt.Fprintf(w, "end triggered by goods %d, buildings %d, The Machine %d\n\n",
		res.EndCauses.Goods, res.EndCauses.Buildings, res.EndCauses.Machine)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seat\tbot\twins\twin rate\tavg score\tgoods\tprestige\t")
	seats := res.Seats
	if res.Machine != nil {
		seats = append(seats, *res.Machine)
	}
	for _, s := range seats {
		seat := fmt.Sprint(s.Seat + 1)
		if s.Seat < 0 {
			seat = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t%.1f\t%.1f\t%.1f\t\n",
			seat, s.Bot, s.Wins, 100*s.WinRate, s.AvgScore, s.AvgGoods, s.AvgPrestige)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "blueprint\tbuilt/game\tactivated/game\t")
	n := float64(res.Games)
	for _, c := range res.Cards {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t\n", c.Name, float64(c.Built)/n, float64(c.Activated)/n)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "contractor\thired/game\t")
	for _, c := range res.Contractors {
		fmt.Fprintf(tw, "%s\t%.2f\t\n", c.Name, float64(c.Hired)/n)
	}
	return tw.Flush()
}
