package cmd

import (
	"flag"
	"fmt"
)

// whoami shows the identity the player's seats are bound to.
func (s *Set) whoami(c *Call) error {
	if _, err := c.flags(flag.NewFlagSet("whoami", flag.ContinueOnError), 0, ""); err != nil {
		return err
	}
	name, id, key := c.T("cmd.whoami.name"), c.T("cmd.whoami.ident"), c.T("cmd.whoami.key")
	w := max(len([]rune(name)), len([]rune(id)), len([]rune(key))) + 1
	fmt.Fprintf(c.Out, "%-*s%s\n%-*s%s\n", w, name, c.Player.Name, w, id, c.Player.ID)
	if c.Player.Key != "" && c.Player.Key != c.Player.ID {
		fmt.Fprintf(c.Out, "%-*s%s %s\n", w, key, c.Player.Key, c.T("cmd.whoami.linked"))
	}
	if c.Player.Guest {
		fmt.Fprintln(c.Out, c.T("cmd.guest_note"))
	}
	return nil
}
