package cmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/session"
)

// profile prints the player's record, or another player's.
func (s *Set) profile(c *Call) error {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
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
		return errUsage{c.flagError(err)}
	}
	p, err := s.Lobby.PlayerProfile(c.Ctx, c.Player, strings.Join(words, " "))
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(c.Out, p)
	}
	s.profileText(c, p, len(words) == 0)
	return nil
}

// profileText prints a profile for people, in their language; the
// player's own (own) says which language they read, and why.
func (s *Set) profileText(c *Call, p players.Summary, own bool) {
	w := c.Out
	layout := c.T("cmd.date_layout")
	head := p.Name
	if !p.Since.IsZero() {
		head += "  " + c.T("cmd.profile.since", "Date", p.Since.Format(layout))
	}
	if p.Keys > 1 {
		head += " · " + c.N("cmd.profile.keys", p.Keys)
	}
	fmt.Fprintln(w, head)
	fmt.Fprintf(w, "%s, %s\n", c.N("cmd.profile.finished", p.Games), c.N("cmd.profile.wins", p.Wins))
	if own {
		fmt.Fprintln(w, langLine(c, p.Lang))
		if p.Plain {
			fmt.Fprintln(w, c.T("cmd.profile.plain"))
		}
	}
	for _, g := range p.ByGame {
		if g.Games > 0 {
			fmt.Fprintf(w, "\n%s\n", c.T("cmd.profile.game", "Title", s.title(c, g.Game), "Games", c.N("cmd.profile.games", g.Games),
				"Wins", c.N("cmd.profile.wins", g.Wins), "Average", c.decimal(g.AverageScore, 1)))
		} else {
			fmt.Fprintf(w, "\n%s\n", c.T("cmd.profile.solo_only", "Title", s.title(c, g.Game)))
		}
		if g.Rating != nil {
			fmt.Fprintf(w, "  %s\n", c.T("cmd.profile.rating", "Rating", c.decimal(g.Ordinal, 1), "Mu", c.decimal(g.Rating.Mu, 1),
				"Sigma", c.decimal(g.Rating.Sigma, 2), "Games", c.N("cmd.profile.rated", g.Rating.Games)))
		}
		for _, r := range g.Solo {
			fmt.Fprintf(w, "  %s\n", c.T("cmd.profile.solo", "Opponent", session.OpponentName(lang.For(c.Lang), g.Game, r.Opponent), "Wins", c.N("cmd.profile.wins", r.Wins),
				"Losses", c.N("cmd.profile.losses", r.Losses), "Best", r.Best))
		}
		if len(g.Favourites) > 0 {
			var favs []string
			for _, f := range g.Favourites {
				favs = append(favs, fmt.Sprintf("%s (%d)", gameWord(c.Lang, g.Game+".card."+f.Card, f.Card), f.Games))
			}
			fmt.Fprintf(w, "  %s\n", c.T("cmd.profile.favourites", "Cards", strings.Join(favs, ", ")))
		}
	}
	s.recentGames(c, p.Recent)
}

// recentGames prints a profile's latest finished games.
func (s *Set) recentGames(c *Call, recent []players.RecentGame) {
	if len(recent) == 0 {
		return
	}
	fmt.Fprintf(c.Out, "\n%s\n", c.T("cmd.profile.recent", "Command", s.Host.SSHCommand(true, "replay", c.usage("CODE"))))
	tw := newTable(c.Out)
	for _, r := range recent {
		result := c.T("cmd.profile.result", "Place", place(c, r.Place, r.Seats), "Score", r.Score)
		if r.Won {
			result += " · " + c.T("cmd.profile.won")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Code, session.GameKind(lang.For(c.Lang), r.Game, r.Seats), r.Ended.Format(c.T("cmd.date_layout")), result)
	}
	tw.Flush()
}

// langLine says which language the player reads, and why: the one their
// profile keeps (stored), their client's, or the default.
func langLine(c *Call, stored string) string {
	why := c.T("cmd.profile.lang_default")
	if _, ok := lang.Parse(stored); ok {
		why = c.T("cmd.profile.lang_chosen")
	} else if _, ok := lang.FromEnv(c.Env); ok {
		why = c.T("cmd.profile.lang_env")
	}
	return c.T("cmd.profile.lang", "Name", c.Lang.Name(), "Why", why)
}

// place words a finishing place: "1st of 3"; a solo game has none.
// English writes its ordinals' suffix here; the other languages write
// theirs in the message.
func place(c *Call, p, seats int) string {
	if seats == 1 {
		return c.T("cmd.profile.scored")
	}
	n := strconv.Itoa(p)
	if c.Lang == lang.English || c.Lang == "" {
		n += englishOrdinal(p)
	}
	return c.T("cmd.profile.place", "Place", n, "Seats", seats)
}

func englishOrdinal(p int) string {
	switch {
	case p%100/10 == 1:
	case p%10 == 1:
		return "st"
	case p%10 == 2:
		return "nd"
	case p%10 == 3:
		return "rd"
	}
	return "th"
}
