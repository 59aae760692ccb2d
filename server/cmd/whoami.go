package cmd

import (
	"flag"
	"fmt"
)

// identity is the player as whoami --json and name --json print them:
// the field names every command's JSON gives a player.
type identity struct {
	Name string `json:"name"`
	ID   string `json:"id"`
	// Key is the key the player connected with, when it is another
	// than the one their profile started with (link).
	Key   string `json:"key,omitempty"`
	Guest bool   `json:"guest,omitempty"`
}

func (c *Call) identity() identity {
	id := identity{Name: c.Player.Name, ID: c.Player.ID, Guest: c.Player.Guest}
	if c.Player.Key != "" && c.Player.Key != c.Player.ID {
		id.Key = c.Player.Key
	}
	return id
}

// whoami shows the identity the player's seats are bound to.
func (s *Set) whoami(c *Call) error {
	if _, err := c.flags(flag.NewFlagSet("whoami", flag.ContinueOnError), 0, ""); err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(c.Out, c.identity())
	}
	name, id, key := c.T("cmd.whoami.name"), c.T("cmd.whoami.ident"), c.T("cmd.whoami.key")
	w := max(len([]rune(name)), len([]rune(id)), len([]rune(key))) + 1
	fmt.Fprintf(c.Out, "%-*s%s\n%-*s%s\n", w, name, c.Player.Name, w, id, c.Player.ID)
	if k := c.identity().Key; k != "" {
		fmt.Fprintf(c.Out, "%-*s%s %s\n", w, key, k, c.T("cmd.whoami.linked"))
	}
	if c.Player.Guest {
		fmt.Fprintln(c.Out, c.T("cmd.guest_note"))
	}
	return nil
}
