package store

import (
	"context"
	"time"
)

// ChatLine is one thing said in a room or in the lobby, cleaned
// (the lobby's CleanText) before it was stored.
type ChatLine struct {
	// ID tells lines apart, so a client shown the chat again can skip
	// what it has.
	ID string    `json:"id"`
	At time.Time `json:"at"`
	// Name is the speaker's name as the room showed it.
	Name string `json:"name"`
	// Seat is the speaker's seat, or -1 for a spectator and in the lobby.
	Seat int `json:"seat"`
	// Channel is ChatPlayers, ChatSpectators or ChatLobby.
	Channel string `json:"channel"`
	Text    string `json:"text"`
	// Me marks an action ("/me waves"): shown as "* alice waves".
	Me bool `json:"me,omitempty"`
}

// Chat channels. A room has two: its players', which everyone in the room
// reads, and its spectators', which players may hide on their screens.
const (
	ChatPlayers    = "players"
	ChatSpectators = "spectators"
	ChatLobby      = "lobby"
)

// Chats keeps what is said: each room's chat with the room, and the
// lobby's under the code "". Every driver implements it.
type Chats interface {
	// AddChat appends line to the chat of room code, keeping only its
	// newest keep lines.
	AddChat(ctx context.Context, code string, line ChatLine, keep int) error
	// Chat returns the newest n lines of room code's chat (all when n is
	// 0), oldest first; none for a room nobody spoke in.
	Chat(ctx context.Context, code string, n int) ([]ChatLine, error)
	// DeleteChat forgets room code's chat.
	DeleteChat(ctx context.Context, code string) error
}
