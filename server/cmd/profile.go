package cmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smokestack/smokestack/lobby/players"
)

// profile prints the player's record, or another player's.
func (s *Set) profile(c *Call) error {
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
	p, err := s.Lobby.PlayerProfile(c.Ctx, c.Player, strings.Join(words, " "))
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.Out, p)
	}
	s.profileText(c.Out, p)
	return nil
}

// profileText prints a profile for people.
func (s *Set) profileText(w io.Writer, p players.Summary) {
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
	fmt.Fprintf(w, "\nRecent games (replay one: %s):\n", s.Host.SSHCommand(true, "replay", "CODE"))
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

func (s *Set) title(game string) string {
	if g, ok := s.Lobby.Game(game); ok {
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
