package cmd

import (
	"context"
	"flag"

	"github.com/smokestack/smokestack/lobby"
)

// mine lists the rooms waiting on the player's move.
func (s *Set) mine(c *Call) error {
	if _, err := c.flags(flag.NewFlagSet("mine", flag.ContinueOnError), 0, ""); err != nil {
		return err
	}
	return c.listRooms(s.Lobby, func(ctx context.Context) ([]lobby.RoomInfo, error) {
		return s.Lobby.Mine(ctx, c.Player)
	}, "", c.T("cmd.rooms.mine_none"))
}
