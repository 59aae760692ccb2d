package cmd

import (
	"context"
	"flag"

	"github.com/smokestack/smokestack/lobby"
)

// history lists the games the player holds a seat in.
func (s *Set) history(c *Call) error {
	none := c.T("cmd.rooms.history_none")
	if c.Player.Guest {
		none = c.T("cmd.rooms.history_guest")
	}
	if _, err := c.flags(flag.NewFlagSet("history", flag.ContinueOnError), 0, ""); err != nil {
		return err
	}
	return c.listRooms(s.Lobby, func(ctx context.Context) ([]lobby.RoomInfo, error) {
		return s.Lobby.History(ctx, c.Player.ID)
	}, "", none)
}
