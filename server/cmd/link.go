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
		fmt.Fprintf(c.Err, "On your other key, before %s, run:\n  %s\n"+
			"It then plays as %s, in your seats, with your records. The code works once.\n",
			expires.UTC().Format("15:04 UTC"), s.Host.SSHCommand(false, "link", shown), c.Player.Name)
		return nil
	}
	linked, err := s.Lobby.Link(c.Ctx, c.Player, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Out, "This key plays as %s now (%s).\n", linked.Profile.Name, count(len(linked.Profile.Keys), "linked key"))
	if linked.Left != "" && linked.Left != linked.Profile.Name {
		fmt.Fprintf(c.Out, "Its old name %s is free again; finished games keep it.\n", linked.Left)
	}
	return nil
}
