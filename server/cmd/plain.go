package cmd

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

// plainCmd opens the lobby in the line mode (session/line), or keeps
// the line mode as the player's choice for every terminal session of
// theirs (on), or forgets that choice (off), as lang keeps a language.
func (s *Set) plainCmd(c *Call) error {
	pos, err := c.flagsUpTo(flag.NewFlagSet("plain", flag.ContinueOnError), 0, 1, "")
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return s.screen(c, command{name: "plain", terminal: true})
	}
	var on bool
	switch strings.ToLower(pos[0]) {
	case "on", "always":
		on = true
	case "off", "never", "auto":
	default:
		return errUsage{c.T("cmd.plain.which", "Arg", fmt.Sprintf("%.20q", pos[0]))}
	}
	if c.Player.Guest {
		return errors.New(c.T("cmd.plain.guest"))
	}
	p, err := s.Lobby.SetPlain(c.Ctx, c.Player, on)
	if err != nil {
		return err
	}
	c.Player = p
	if on {
		fmt.Fprintln(c.Out, c.T("cmd.plain.on"))
	} else {
		fmt.Fprintln(c.Out, c.T("cmd.plain.off"))
	}
	return nil
}
