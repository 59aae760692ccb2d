// Package chat is what people say, in rooms and in the lobby: lines
// cleaned (CleanText) and measured before they are stored, each person's
// pace, and the lobby's chat followed by the screens that show it. The
// rooms' chat is kept with the rooms by the lobby, through Store.
package chat

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Store keeps what is said; store.Store is one.
type Store = store.Chats

// Chat limits.
const (
	// MaxLength is the most characters one message may have, after
	// cleaning.
	MaxLength = 300
	// Keep is how many lines a room's chat keeps in the store: what its
	// replay shows.
	Keep = 500
	// LobbyKeep is how many lines the lobby's chat keeps.
	LobbyKeep = 200
	// Recent is how many of the newest lines a room's updates and the
	// lobby's chat feed carry.
	Recent = 100
	// maxNameLength caps a speaker's name in a chat line.
	maxNameLength = 24
)

// NewLine cleans what a person typed into a line for channel, said at
// now by name from seat, or says why it cannot be sent. "/me waves" is
// an action.
func NewLine(name string, seat int, channel, text string, now time.Time) (store.ChatLine, error) {
	me := false
	if rest, ok := strings.CutPrefix(text, "/me "); ok {
		me, text = true, rest
	}
	text = CleanText(text)
	switch n := len([]rune(text)); {
	case n == 0:
		return store.ChatLine{}, engine.Refuse("nothing to send: the message is empty once control characters are removed",
			engine.Say("lobby.chatEmpty"))
	case n > MaxLength:
		return store.ChatLine{}, engine.Refuse(fmt.Sprintf("a message has at most %d characters; that one has %d and was not sent", MaxLength, n),
			engine.Say("lobby.chatLong", engine.Num("Max", MaxLength), engine.Num("Length", n)))
	}
	name = CleanText(name)
	if r := []rune(name); len(r) > maxNameLength {
		name = string(r[:maxNameLength])
	}
	return store.ChatLine{ID: rand.Text(), At: now.UTC(), Name: name, Seat: seat, Channel: channel, Text: text, Me: me}, nil
}
