package cmd

import (
	"flag"
	"fmt"
	"strings"
)

// name prints the player's name, or changes it: every word after the
// command is the new name, so `name Alice Liddell` needs no quotes.
func (s *Set) name(c *Call) error {
	if len(c.args) > 0 && (c.args[0] == "-h" || c.args[0] == "--help") {
		return flag.ErrHelp
	}
	if len(c.args) == 0 {
		fmt.Fprintln(c.Out, c.Player.Name)
		if c.Player.Guest {
			fmt.Fprintln(c.Err, c.T("cmd.guest_note"))
		}
		return nil
	}
	name, err := s.Lobby.Rename(c.Ctx, c.Player, strings.Join(c.args, " "))
	if err != nil {
		return err
	}
	fmt.Fprintln(c.Out, name)
	fmt.Fprintln(c.Err, c.T("cmd.name.renamed", "Name", name))
	return nil
}
