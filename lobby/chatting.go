package lobby

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// chatting is what people say: each line made and paced per player, the
// lobby's chat and the feeds that follow it, a room's chat read again when
// another instance wrote to it, and a finished game's whole chat for its
// replay. It is made with what it needs and nothing of the Lobby.
type chatting struct {
	store interface {
		store.Chats
		Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error)
	}
	now         func() time.Time
	perMinute   int
	observer    Observer
	fault       func(what string, err error, attrs ...any)
	unavailable func(what string, err error, attrs ...any) error
	// loadedRoom is a room loaded here, and mayOpen whether p may open
	// the room an invite names (access).
	loadedRoom func(code string) *room.Room
	mayOpen    func(ctx context.Context, invite, word string, p Player, find func(code string) (store.Meta, error)) (share bool, err error)

	lobby      *chat.Lobby
	lobbyReads room.Rerun // reads of the lobby's chat others wrote
	rates      chat.Rates
}

// newChatLine makes what p typed into a line for channel (chat.NewLine),
// or says why it cannot be sent: not fit to send, or too fast.
func (cs *chatting) newChatLine(p Player, name string, seat int, channel, text string) (store.ChatLine, error) {
	line, err := chat.NewLine(name, seat, channel, text, cs.now())
	if err != nil {
		return store.ChatLine{}, err
	}
	if err := cs.allowChat(p); err != nil {
		return store.ChatLine{}, err
	}
	return line, nil
}

// allowChat takes one message from p's allowance, or refuses it.
func (cs *chatting) allowChat(p Player) error {
	per := cs.perMinute
	if cs.rates.Allow(p.ID, per) {
		return nil
	}
	cs.observer.Refused("chat_rate", p)
	return &LimitError{Reason: "chat_rate", Msg: fmt.Sprintf("slow down: at most %d messages a minute; that one was not sent", per),
		Words: engine.Say("lobby.chatRate", engine.Num("N", per))}
}

// chatChanged catches up with a chat another instance wrote to: the
// lobby's (code "") or a room's held here. Each chat is read on its own
// goroutine, one read at a time, so a slow read delays no other.
func (cs *chatting) chatChanged(ctx context.Context, code string) {
	if code == "" {
		cs.lobbyReads.Kick(func() { cs.lobby.Read(ctx) })
		return
	}
	if r := cs.loadedRoom(code); r != nil {
		r.ReadChatSoon(ctx)
	}
}

// deleteChat forgets the chat of a room that is gone.
func (cs *chatting) deleteChat(ctx context.Context, code string) {
	if err := cs.store.DeleteChat(ctx, code); err != nil {
		cs.fault("delete chat", err, "code", code)
	}
}

// ReplayChat returns everything said in the finished game in the room
// invite names, for its replay; p may read it if they may replay the game.
func (cs *chatting) ReplayChat(ctx context.Context, invite string, p Player) ([]store.ChatLine, error) {
	var code string
	_, err := cs.mayOpen(ctx, invite, "", p, func(c string) (store.Meta, error) {
		m, _, err := cs.store.Load(ctx, c, math.MaxInt)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			err = cs.unavailable("load room "+c, err)
		}
		code = m.Code
		return m, err
	})
	if err != nil {
		return nil, err
	}
	lines, err := cs.store.Chat(ctx, code, 0)
	if err != nil {
		return nil, cs.unavailable("read chat of room "+code, err)
	}
	return lines, nil
}

// FollowLobbyChat opens a feed of the lobby's chat. Close it when the
// screen no longer shows the chat.
func (cs *chatting) FollowLobbyChat(ctx context.Context) *chat.Feed { return cs.lobby.Follow(ctx) }

// SayInLobby sends text from p to the lobby's chat.
func (cs *chatting) SayInLobby(ctx context.Context, p Player, text string) error {
	line, err := cs.newChatLine(p, p.Name, -1, store.ChatLobby, text)
	if err != nil {
		return err
	}
	if err := cs.store.AddChat(ctx, "", line, chat.LobbyKeep); err != nil {
		return cs.unavailable("lobby chat", err)
	}
	cs.lobby.Read(ctx)
	return nil
}
