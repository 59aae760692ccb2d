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
	fmt.Fprintf(c.Out, "name: %s\nid:   %s\n", c.Player.Name, c.Player.ID)
	if c.Player.Key != "" && c.Player.Key != c.Player.ID {
		fmt.Fprintf(c.Out, "key:  %s (linked)\n", c.Player.Key)
	}
	if c.Player.Guest {
		fmt.Fprintln(c.Out, GuestNote)
	}
	return nil
}
