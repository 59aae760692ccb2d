package cmd

import (
	"flag"
	"fmt"

	"github.com/smokestack/smokestack/lobby/players"
)

// top prints a game's leaderboard.
func (s *Set) top(c *Call) error {
	fs := flag.NewFlagSet("top", flag.ContinueOnError)
	game := fs.String("game", "", "")
	limit := fs.Int("limit", 20, "")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	g, ok := s.Lobby.Game(*game)
	if !ok {
		return s.gameChoice(c, *game)
	}
	if *limit < 1 {
		return errUsage{c.T("cmd.top.limit")}
	}
	board, err := s.Lobby.Top(c.Ctx, g.Name(), c.Player, *limit)
	if err != nil {
		return err
	}
	if board == nil {
		board = []players.Standing{} // scripts get [] rather than null
	}
	if c.JSON {
		return writeJSON(c.Out, struct {
			Game      string             `json:"game"`
			Standings []players.Standing `json:"standings"`
		}{g.Name(), board})
	}
	if len(board) == 0 {
		fmt.Fprintln(c.Out, c.T("cmd.top.nobody", "Title", s.title(c, g.Name())))
		return nil
	}
	fmt.Fprintf(c.Out, "%s\n\n", c.T("cmd.top.head", "Title", s.title(c, g.Name())))
	tw := newTable(c.Out)
	fmt.Fprintln(tw, c.T("cmd.top.columns"))
	shown := 0
	for _, st := range board {
		if shown >= *limit && !st.You {
			continue
		}
		shown++
		name := st.Name
		if st.You {
			name += " " + c.T("cmd.top.you")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\n", st.Rank, name, c.decimal(st.Rating, 1), c.decimal(st.Mu, 1), c.decimal(st.Sigma, 2), st.Games)
	}
	return tw.Flush()
}
