package cmd

import (
	"fmt"
	"strings"
)

// name prints the player's name, or changes it: every word after the
// command is the new name, so `name Alice Liddell` needs no quotes.
func (s *Set) name(c *Call) error {
	if len(c.args) == 0 {
		if c.JSON {
			return writeJSON(c.Out, c.identity())
		}
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
	c.Player.Name = name
	if c.JSON {
		if err := writeJSON(c.Out, c.identity()); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(c.Out, name)
	}
	fmt.Fprintln(c.Err, c.T("cmd.name.renamed", "Name", name))
	return nil
}
