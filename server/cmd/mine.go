package cmd

import (
	"flag"
	"fmt"
)

// mine lists the rooms waiting on the player's move.
func (s *Set) mine(c *Call) error {
	fs := flag.NewFlagSet("mine", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	rooms, err := s.Lobby.Mine(c.Ctx, c.Player)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.Out, rooms)
	}
	if len(rooms) == 0 {
		fmt.Fprintln(c.Out, "No game waits on your move.")
		return nil
	}
	return roomTable(c.Out, rooms)
}
