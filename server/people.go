package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smokestack/smokestack/lobby/players"
)

// The commands about players: their names, profiles, linked keys,
// leaderboards and the games waiting on them.

func (s *Server) whoami(c *call) error {
	if _, err := c.flags(flag.NewFlagSet("whoami", flag.ContinueOnError), 0, ""); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "name: %s\nid:   %s\n", c.player.Name, c.player.ID)
	if c.player.Key != "" && c.player.Key != c.player.ID {
		fmt.Fprintf(c.out, "key:  %s (linked)\n", c.player.Key)
	}
	if c.player.Guest {
		fmt.Fprintln(c.out, GuestNote)
	}
	return nil
}

// name prints the player's name, or changes it: every word after the
// command is the new name, so `name Alice Liddell` needs no quotes.
func (s *Server) name(c *call) error {
	if len(c.args) > 0 && (c.args[0] == "-h" || c.args[0] == "--help") {
		return flag.ErrHelp
	}
	if len(c.args) == 0 {
		fmt.Fprintln(c.out, c.player.Name)
		if c.player.Guest {
			fmt.Fprintln(c.errOut, GuestNote)
		}
		return nil
	}
	name, err := s.cfg.Lobby.Rename(c.ctx, c.player, strings.Join(c.args, " "))
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, name)
	fmt.Fprintf(c.errOut, "You are %s now, at every table you sit down or come back to.\n", name)
	return nil
}

func (s *Server) profile(c *call) error {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	fs.SetOutput(io.Discard)
	// Every word that is not a flag is the name: names may have spaces.
	var words, flags []string
	for _, a := range c.args {
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
		} else {
			words = append(words, a)
		}
	}
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage{err.Error()}
	}
	p, err := s.cfg.Lobby.PlayerProfile(c.ctx, c.player, strings.Join(words, " "))
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.out, p)
	}
	s.profileText(c.out, p)
	return nil
}

// profileText prints a profile for people.
func (s *Server) profileText(w io.Writer, p players.Summary) {
	head := p.Name
	if !p.Since.IsZero() {
		head += "  playing here since " + p.Since.Format("2 Jan 2006")
	}
	if p.Keys > 1 {
		head += fmt.Sprintf(" · %d linked keys", p.Keys)
	}
	fmt.Fprintln(w, head)
	fmt.Fprintf(w, "%s, %s\n", count(p.Games, "finished game"), count(p.Wins, "win"))
	for _, g := range p.ByGame {
		fmt.Fprintf(w, "\n%s: %s, %s, average score %.1f\n", s.title(g.Game), count(g.Games, "game"), count(g.Wins, "win"), g.AverageScore)
		if g.Rating != nil {
			fmt.Fprintf(w, "  rating %.1f (mu %.1f, sigma %.2f, %s)\n", g.Ordinal, g.Rating.Mu, g.Rating.Sigma, count(g.Rating.Games, "rated game"))
		}
		for _, r := range g.Solo {
			fmt.Fprintf(w, "  solo against %s: %s, %s, best score %d\n", r.Opponent, count(r.Wins, "win"), count(r.Losses, "loss"), r.Best)
		}
		if len(g.Favourites) > 0 {
			var favs []string
			for _, f := range g.Favourites {
				favs = append(favs, fmt.Sprintf("%s (%d)", f.Card, f.Games))
			}
			fmt.Fprintf(w, "  favourite cards: %s\n", strings.Join(favs, ", "))
		}
	}
	if len(p.Recent) == 0 {
		return
	}
	fmt.Fprintf(w, "\nRecent games (replay one: %s):\n", s.sshCommand(true, "replay", "CODE"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range p.Recent {
		result := fmt.Sprintf("%s with %d", place(r.Place, r.Seats), r.Score)
		if r.Won {
			result += " · won"
		}
		fmt.Fprintf(tw, "  %s\t%s %s\t%s\t%s\n", r.Code, r.Game, seatsWord(r.Seats), r.Ended.Format("2 Jan 2006"), result)
	}
	tw.Flush()
}

func (s *Server) title(game string) string {
	if g, ok := s.cfg.Lobby.Game(game); ok {
		return g.Rules.Title()
	}
	return game
}

func count(n int, what string) string {
	switch {
	case n == 1:
		return "1 " + what
	case strings.HasSuffix(what, "s"):
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func seatsWord(n int) string {
	if n == 1 {
		return "solo"
	}
	return fmt.Sprintf("%dp", n)
}

// place words a finishing place: "1st", "2nd of 3"; a solo game has none.
func place(p, seats int) string {
	if seats == 1 {
		return "scored"
	}
	suffix := "th"
	switch {
	case p%100/10 == 1:
	case p%10 == 1:
		suffix = "st"
	case p%10 == 2:
		suffix = "nd"
	case p%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s of %d", p, suffix, seats)
}

// link shows a one-time code for another key, or links this key with
// one.
func (s *Server) link(c *call) error {
	pos, err := c.flags(flag.NewFlagSet("link", flag.ContinueOnError), min(len(c.args), 1), "")
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		code, expires, err := s.cfg.Lobby.LinkCode(c.ctx, c.player)
		if err != nil {
			return err
		}
		shown := code[:players.LinkCodeLength/2] + "-" + code[players.LinkCodeLength/2:]
		fmt.Fprintln(c.out, shown)
		fmt.Fprintf(c.errOut, "On your other key, before %s, run:\n  %s\n"+
			"It then plays as %s, in your seats, with your records. The code works once.\n",
			expires.UTC().Format("15:04 UTC"), s.sshCommand(false, "link", shown), c.player.Name)
		return nil
	}
	linked, err := s.cfg.Lobby.Link(c.ctx, c.player, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "This key plays as %s now (%s).\n", linked.Profile.Name, count(len(linked.Profile.Keys), "linked key"))
	if linked.Left != "" && linked.Left != linked.Profile.Name {
		fmt.Fprintf(c.out, "Its old name %s is free again; finished games keep it.\n", linked.Left)
	}
	return nil
}

// top prints a game's leaderboard.
func (s *Server) top(c *call) error {
	fs := flag.NewFlagSet("top", flag.ContinueOnError)
	game := fs.String("game", "", "")
	asJSON := fs.Bool("json", false, "")
	limit := fs.Int("limit", 20, "")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	g, ok := s.cfg.Lobby.Game(*game)
	if !ok {
		return errUsage{fmt.Sprintf("--game %q: choose %s", *game, strings.Join(s.gameNames(), " or "))}
	}
	if *limit < 1 {
		return errUsage{"--limit is at least 1"}
	}
	board, err := s.cfg.Lobby.Top(c.ctx, g.Name(), c.player)
	if err != nil {
		return err
	}
	if board == nil {
		board = []players.Standing{} // scripts get [] rather than null
	}
	if *asJSON {
		return writeJSON(c.out, struct {
			Game      string             `json:"game"`
			Standings []players.Standing `json:"standings"`
		}{g.Name(), board})
	}
	if len(board) == 0 {
		fmt.Fprintf(c.out, "Nobody is rated in %s yet: ratings start with a finished game between two people with keys.\n", g.Rules.Title())
		return nil
	}
	fmt.Fprintf(c.out, "%s leaderboard · rating = mu - 3 sigma (99.7%% sure)\n\n", g.Rules.Title())
	tw := tabwriter.NewWriter(c.out, 0, 0, 2, ' ', 0)
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

// mine lists the rooms waiting on the player's move.
func (s *Server) mine(c *call) error {
	fs := flag.NewFlagSet("mine", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	rooms, err := s.cfg.Lobby.Mine(c.ctx, c.player)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.out, rooms)
	}
	if len(rooms) == 0 {
		fmt.Fprintln(c.out, "No game waits on your move.")
		return nil
	}
	return roomTable(c.out, rooms)
}
