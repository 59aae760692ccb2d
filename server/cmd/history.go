package cmd

import (
	"context"

	"github.com/smokestack/smokestack/lobby"
)

// history lists the games the player holds a seat in.
func (s *Set) history(c *Call) error {
	none := "You have not played here yet."
	if c.Player.Guest {
		none = "Guests have no history: connect with an SSH key to keep your games."
	}
	return c.listRooms("history", func(ctx context.Context) ([]lobby.RoomInfo, error) {
		return s.Lobby.History(ctx, c.Player.ID)
	}, none)
}
