package cmd

import (
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/smokestack/smokestack/lobby/players"
)

// top prints a game's leaderboard.
func (s *Set) top(c *Call) error {
	fs := flag.NewFlagSet("top", flag.ContinueOnError)
	game := fs.String("game", "", "")
	asJSON := fs.Bool("json", false, "")
	limit := fs.Int("limit", 20, "")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	g, ok := s.Lobby.Game(*game)
	if !ok {
		return errUsage{fmt.Sprintf("--game %q: choose %s", *game, strings.Join(s.gameNames(), " or "))}
	}
	if *limit < 1 {
		return errUsage{"--limit is at least 1"}
	}
	board, err := s.Lobby.Top(c.Ctx, g.Name(), c.Player)
	if err != nil {
		return err
	}
	if board == nil {
		board = []players.Standing{} // scripts get [] rather than null
	}
	if *asJSON {
		return writeJSON(c.Out, struct {
			Game      string             `json:"game"`
			Standings []players.Standing `json:"standings"`
		}{g.Name(), board})
	}
	if len(board) == 0 {
		fmt.Fprintf(c.Out, "Nobody is rated in %s yet: ratings start with a finished game between two people with keys.\n", g.Rules.Title())
		return nil
	}
	fmt.Fprintf(c.Out, "%s leaderboard · rating = mu - 3 sigma (99.7%% sure)\n\n", g.Rules.Title())
	tw := tabwriter.NewWriter(c.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tNAME\tRATING\tMU\tSIGMA\tGAMES")
	shown := 0
	for _, st := range board {
		if shown >= *limit && !st.You {
			continue
		}
		shown++
		name := st.Name
		if st.You {
			name += " (you)"
		}
		fmt.Fprintf(tw, "%d\t%s\t%.1f\t%.1f\t%.2f\t%d\n", st.Rank, name, st.Rating, st.Mu, st.Sigma, st.Games)
	}
	return tw.Flush()
}
