package room

import (
	"context"

	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
)

// Say sends text to the room's chat: to the players' channel from a seat,
// to the spectators' from a spectator. The error says why it was not
// sent: empty, too long, too fast, or the store unavailable.
func (c *Conn) Say(ctx context.Context, text string) error {
	r := c.room
	h := r.lock()
	name, channel := c.player.Name, store.ChatSpectators
	if c.seat >= 0 && c.seat < len(h.meta.Seats) {
		name, channel = h.meta.Seats[c.seat].Name, store.ChatPlayers
	}
	code := h.meta.Code
	h.unlock()
	line, err := r.env.ChatLine(c.player, name, c.seat, channel, text)
	if err != nil {
		return err
	}
	if err := r.env.Store.AddChat(ctx, code, line, chat.Keep); err != nil {
		return r.env.Unavailable("chat in room "+code, err)
	}
	// The store's order is the chat's: read it back rather than append
	// here, so every instance shows the same order.
	r.readChat(ctx)
	return nil
}
