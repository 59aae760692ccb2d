package cmd

import (
	"flag"
	"fmt"

	"github.com/smokestack/smokestack/lobby/players"
)

// link shows a one-time code for another key, or links this key with
// one.
func (s *Set) link(c *Call) error {
	pos, err := c.flags(flag.NewFlagSet("link", flag.ContinueOnError), min(len(c.args), 1), "")
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		code, expires, err := s.Lobby.LinkCode(c.Ctx, c.Player)
		if err != nil {
			return err
		}
		shown := code[:players.LinkCodeLength/2] + "-" + code[players.LinkCodeLength/2:]
		fmt.Fprintln(c.Out, shown)
		fmt.Fprintf(c.Err, "%s\n  %s\n%s\n", c.T("cmd.link.run", "Time", expires.UTC().Format("15:04 UTC")),
			s.Host.SSHCommand(false, "link", shown), c.T("cmd.link.then", "Name", c.Player.Name))
		return nil
	}
	linked, err := s.Lobby.Link(c.Ctx, c.Player, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintln(c.Out, c.T("cmd.link.linked", "Name", linked.Profile.Name, "Keys", c.N("cmd.profile.keys", len(linked.Profile.Keys))))
	if linked.Left != "" && linked.Left != linked.Profile.Name {
		fmt.Fprintln(c.Out, c.T("cmd.link.old_name", "Name", linked.Left))
	}
	return nil
}
