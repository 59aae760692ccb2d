package cmd

import (
	"context"

	"github.com/smokestack/smokestack/lobby"
)

// history lists the games the player holds a seat in.
func (s *Set) history(c *Call) error {
	none := c.T("cmd.rooms.history_none")
	if c.Player.Guest {
		none = c.T("cmd.rooms.history_guest")
	}
	return c.listRooms("history", func(ctx context.Context) ([]lobby.RoomInfo, error) {
		return s.Lobby.History(ctx, c.Player.ID)
	}, none)
}
