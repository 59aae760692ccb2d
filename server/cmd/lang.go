package cmd

import (
	"flag"
	"fmt"

	"github.com/smokestack/smokestack/internal/lang"
)

// langCmd lists the languages the game speaks and says which the player
// reads and why, or keeps their choice in their profile, where it beats
// their client's environment from now on; "auto" forgets the choice.
func (s *Set) langCmd(c *Call) error {
	pos, err := c.flagsUpTo(flag.NewFlagSet("lang", flag.ContinueOnError), 0, 1, "")
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		s.listLangs(c)
		return nil
	}
	stored, ok := lang.Tag(""), pos[0] == "auto"
	if !ok {
		if stored, ok = lang.Parse(pos[0]); !ok {
			return errUsage{c.T("cmd.lang.unknown", "Lang", fmt.Sprintf("%.20q", pos[0]))}
		}
	}
	if c.Player.Guest {
		return fmt.Errorf("%s", c.T("cmd.lang.guest"))
	}
	p, err := s.Lobby.SetLang(c.Ctx, c.Player, string(stored))
	if err != nil {
		return err
	}
	c.Player = p
	c.Lang = lang.Choose(p.Lang, c.Env)
	fmt.Fprintln(c.Out, c.Lang)
	if stored == "" {
		fmt.Fprintln(c.Err, c.T("cmd.lang.auto", "Name", c.Lang.Name()))
		return nil
	}
	fmt.Fprintln(c.Err, c.T("lang.chosen"))
	return nil
}

// listLangs prints the languages, the player's marked, and where their
// choice comes from.
func (s *Set) listLangs(c *Call) {
	fmt.Fprintln(c.Out, c.T("cmd.lang.list"))
	for _, t := range lang.Tags {
		mark := " "
		if t == c.Lang {
			mark = "*"
		}
		fmt.Fprintf(c.Out, "%s %s  %s\n", mark, t, t.Name())
	}
	var why string
	_, fromEnv := lang.FromEnv(c.Env)
	switch _, stored := lang.Parse(c.Player.Lang); {
	case stored:
		why = c.T("cmd.lang.from_profile", "Name", c.Lang.Name())
	case fromEnv:
		why = c.T("cmd.lang.from_env", "Name", c.Lang.Name())
	default:
		why = c.T("cmd.lang.from_default", "Name", c.Lang.Name())
	}
	fmt.Fprintln(c.Out, "\n"+why)
}
