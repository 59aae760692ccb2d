package cmd

import (
	"context"

	"github.com/smokestack/smokestack/lobby"
)

// mine lists the rooms waiting on the player's move.
func (s *Set) mine(c *Call) error {
	return c.listRooms("mine", func(ctx context.Context) ([]lobby.RoomInfo, error) {
		return s.Lobby.Mine(ctx, c.Player)
	}, c.T("cmd.rooms.mine_none"))
}
