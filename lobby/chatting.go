package lobby

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/store"
)

// newChatLine makes what p typed into a line for channel (chat.NewLine),
// or says why it cannot be sent: not fit to send, or too fast.
func (l *Lobby) newChatLine(p Player, name string, seat int, channel, text string) (store.ChatLine, error) {
	line, err := chat.NewLine(name, seat, channel, text, l.cfg.Now())
	if err != nil {
		return store.ChatLine{}, err
	}
	if err := l.allowChat(p); err != nil {
		return store.ChatLine{}, err
	}
	return line, nil
}

// allowChat takes one message from p's allowance, or refuses it.
func (l *Lobby) allowChat(p Player) error {
	per := l.cfg.Limits.ChatPerMinute
	if l.chatRates.Allow(p.ID, per) {
		return nil
	}
	l.observer().Refused("chat_rate", p)
	return &LimitError{Reason: "chat_rate", Msg: fmt.Sprintf("slow down: at most %d messages a minute; that one was not sent", per),
		Words: engine.Say("lobby.chatRate", engine.Num("N", per))}
}

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
	line, err := r.env.chatLine(c.player, name, c.seat, channel, text)
	if err != nil {
		return err
	}
	if err := r.env.store.AddChat(ctx, code, line, chat.Keep); err != nil {
		return r.env.unavailable("chat in room "+code, err)
	}
	// The store's order is the chat's: read it back rather than append
	// here, so every instance shows the same order.
	r.readChat(ctx)
	return nil
}

// chatChanged catches up with a chat another instance wrote to: the
// lobby's (code "") or a room's held here. Each chat is read on its own
// goroutine, one read at a time, so a slow read delays no other.
func (l *Lobby) chatChanged(ctx context.Context, code string) {
	if code == "" {
		l.lobbyChatReads.kick(func() { l.lobbyChat.Read(ctx) })
		return
	}
	if r := l.cached(code); r != nil {
		r.chatReads.kick(func() { r.readChat(ctx) })
	}
}

// deleteChat forgets the chat of a room that is gone.
func (l *Lobby) deleteChat(ctx context.Context, code string) {
	if err := l.cfg.Store.DeleteChat(ctx, code); err != nil {
		l.storeFault("delete chat", err, "code", code)
	}
}

// ReplayChat returns everything said in the finished game in the room
// invite names, for its replay; p may read it if they may replay the game.
func (l *Lobby) ReplayChat(ctx context.Context, invite string, p Player) ([]store.ChatLine, error) {
	var code string
	_, err := l.lookup(ctx, invite, p, func(c string) (store.Meta, error) {
		m, _, err := l.cfg.Store.Load(ctx, c, math.MaxInt)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			err = l.unavailable("load room "+c, err)
		}
		code = m.Code
		return m, err
	})
	if err != nil {
		return nil, err
	}
	lines, err := l.cfg.Store.Chat(ctx, code, 0)
	if err != nil {
		return nil, l.unavailable("read chat of room "+code, err)
	}
	return lines, nil
}

// FollowLobbyChat opens a feed of the lobby's chat. Close it when the
// screen no longer shows the chat.
func (l *Lobby) FollowLobbyChat(ctx context.Context) *chat.Feed { return l.lobbyChat.Follow(ctx) }

// SayInLobby sends text from p to the lobby's chat.
func (l *Lobby) SayInLobby(ctx context.Context, p Player, text string) error {
	line, err := l.newChatLine(p, p.Name, -1, store.ChatLobby, text)
	if err != nil {
		return err
	}
	if err := l.cfg.Store.AddChat(ctx, "", line, chat.LobbyKeep); err != nil {
		return l.unavailable("lobby chat", err)
	}
	l.lobbyChat.Read(ctx)
	return nil
}
