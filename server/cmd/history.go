package cmd

import (
	"flag"
	"fmt"
)

// history lists the games the player holds a seat in.
func (s *Set) history(c *Call) error {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	rooms, err := s.Lobby.History(c.Ctx, c.Player.ID)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.Out, rooms)
	}
	if len(rooms) == 0 {
		if c.Player.Guest {
			fmt.Fprintln(c.Out, "Guests have no history: connect with an SSH key to keep your games.")
		} else {
			fmt.Fprintln(c.Out, "You have not played here yet.")
		}
		return nil
	}
	return roomTable(c.Out, rooms)
}
