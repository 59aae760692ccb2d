package lobby

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
	"golang.org/x/time/rate"
)

// Chat limits.
const (
	// MaxChatLength is the most characters one message may have, after
	// cleaning.
	MaxChatLength = 300
	// chatKeep is how many lines a room's chat keeps in the store: what its
	// replay shows.
	chatKeep = 500
	// lobbyChatKeep is how many lines the lobby's chat keeps.
	lobbyChatKeep = 200
	// chatRecent is how many of the newest lines a room's updates and the
	// lobby's chat feed carry.
	chatRecent = 100
	// chatBurst is how many messages a person may send at once before
	// Limits.ChatPerMinute paces them.
	chatBurst = 5
	// maxNameLength caps a speaker's name in a chat line.
	maxNameLength = 24
)

// newChatLine cleans what p typed into a line for channel, or says why it
// cannot be sent. "/me waves" is an action.
func (l *Lobby) newChatLine(p Player, name string, seat int, channel, text string) (store.ChatLine, error) {
	me := false
	if rest, ok := strings.CutPrefix(text, "/me "); ok {
		me, text = true, rest
	}
	text = CleanText(text)
	switch n := len([]rune(text)); {
	case n == 0:
		return store.ChatLine{}, errors.New("nothing to send: the message is empty once control characters are removed")
	case n > MaxChatLength:
		return store.ChatLine{}, fmt.Errorf("a message has at most %d characters; that one has %d and was not sent", MaxChatLength, n)
	}
	if err := l.allowChat(p); err != nil {
		return store.ChatLine{}, err
	}
	name = CleanText(name)
	if r := []rune(name); len(r) > maxNameLength {
		name = string(r[:maxNameLength])
	}
	return store.ChatLine{ID: randomLetters(10), At: l.cfg.Now().UTC(), Name: name, Seat: seat, Channel: channel, Text: text, Me: me}, nil
}

// chatRates paces each person's messages, in the room chats and the
// lobby's together, on this instance.
type chatRates struct {
	mu    sync.Mutex
	by    map[string]*chatRate // by player ID
	swept time.Time
}

type chatRate struct {
	lim  *rate.Limiter
	used time.Time
}

// allowChat takes one message from p's allowance, or refuses it.
func (l *Lobby) allowChat(p Player) error {
	per := l.cfg.Limits.ChatPerMinute
	if per <= 0 {
		return nil
	}
	now := time.Now() // the limiter's own clock, not the lobby's test clock
	c := &l.chatRates
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[string]*chatRate{}
	}
	if now.Sub(c.swept) > time.Minute {
		// An allowance unused for a while is full again: forget it.
		c.swept = now
		full := time.Duration(math.Ceil(float64(chatBurst)/float64(per)*60)) * time.Second
		for id, r := range c.by {
			if now.Sub(r.used) > full {
				delete(c.by, id)
			}
		}
	}
	r := c.by[p.ID]
	if r == nil {
		r = &chatRate{lim: rate.NewLimiter(rate.Limit(float64(per)/60), chatBurst)}
		c.by[p.ID] = r
	}
	r.used = now
	if r.lim.AllowN(now, 1) {
		return nil
	}
	l.observer().Refused("chat_rate", p)
	return &LimitError{Reason: "chat_rate", Msg: fmt.Sprintf("slow down: at most %d messages a minute; that one was not sent", per)}
}

// Say sends text to the room's chat: to the players' channel from a seat,
// to the spectators' from a spectator. The error says why it was not
// sent: empty, too long, too fast, or the store unavailable.
func (c *Conn) Say(ctx context.Context, text string) error {
	r := c.room
	r.mu.Lock()
	name, channel := c.player.Name, store.ChatSpectators
	if c.seat >= 0 && c.seat < len(r.meta.Seats) {
		name, channel = r.meta.Seats[c.seat].Name, store.ChatPlayers
	}
	code := r.meta.Code
	r.mu.Unlock()
	line, err := r.l.newChatLine(c.player, name, c.seat, channel, text)
	if err != nil {
		return err
	}
	if err := r.l.cfg.Store.AddChat(ctx, code, line, chatKeep); err != nil {
		return r.l.unavailable("chat in room "+code, err)
	}
	// The store's order is the chat's: read it back rather than append
	// here, so every instance shows the same order.
	r.readChat(ctx)
	return nil
}

// readChat reads the room's newest chat from the store and pushes it to
// the room's sessions. Reads run outside the room's lock; of two that
// overlap, the later one asked wins.
func (r *room) readChat(ctx context.Context) {
	r.mu.Lock()
	r.chatAsked++
	asked, code := r.chatAsked, r.meta.Code
	r.mu.Unlock()
	lines, err := r.l.cfg.Store.Chat(ctx, code, chatRecent)
	if err != nil {
		r.l.storeFault("read chat", err, "code", code)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if asked <= r.chatTaken {
		return
	}
	r.chatTaken, r.chat = asked, lines
	r.broadcast()
}

// recentChat is the chat an update carries. It shares the room's slice,
// clipped so the room's later appends never reach it; the room never
// changes a line it holds.
func (r *room) recentChat() []store.ChatLine { return slices.Clip(r.chat) }

// chatChanged catches up with a chat another instance wrote to: the
// lobby's (code "") or a room's held here.
func (l *Lobby) chatChanged(ctx context.Context, code string) {
	if code == "" {
		l.readLobbyChat(ctx)
		return
	}
	if r := l.cached(code); r != nil {
		r.readChat(ctx)
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

// lobbyChat is the lobby's chat as this instance follows it: only while a
// lobby screen here shows it.
type lobbyChat struct {
	mu           sync.Mutex
	feeds        map[*ChatFeed]struct{}
	asked, taken int
}

// ChatFeed delivers the lobby's chat to one screen: its newest lines
// each time they change, the newest replacing any unread.
type ChatFeed struct {
	l     *Lobby
	lines chan []store.ChatLine
	// notify is told of every delivery (OnLines); the lobby chat's lock
	// guards it.
	notify func()
}

// Lines delivers the lobby's newest chat lines, oldest first; the first
// delivery comes once they are read from the store.
func (f *ChatFeed) Lines() <-chan []store.ChatLine { return f.lines }

// OnLines has fn called every time lines are put in Lines, and at once if
// some are waiting already, so a screen can take them as they come
// instead of keeping a goroutine waiting on Lines. It is called holding
// the lobby chat's lock: fn must hand the news on and return without
// calling back into the lobby.
func (f *ChatFeed) OnLines(fn func()) {
	c := &f.l.lobbyChat
	c.mu.Lock()
	f.notify = fn
	pending := len(f.lines) > 0
	c.mu.Unlock()
	if pending && fn != nil {
		fn()
	}
}

// Close stops the feed.
func (f *ChatFeed) Close() {
	c := &f.l.lobbyChat
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.feeds, f)
}

// push replaces an unread delivery with lines. The caller holds the
// lobby chat's lock, so each feed has one writer.
func (f *ChatFeed) push(lines []store.ChatLine) {
	select {
	case f.lines <- lines:
	default:
		select {
		case <-f.lines:
		default:
		}
		f.lines <- lines
	}
	if f.notify != nil {
		f.notify()
	}
}

// FollowLobbyChat opens a feed of the lobby's chat. Close it when the
// screen no longer shows the chat.
func (l *Lobby) FollowLobbyChat(ctx context.Context) *ChatFeed {
	f := &ChatFeed{l: l, lines: make(chan []store.ChatLine, 1)}
	c := &l.lobbyChat
	c.mu.Lock()
	if c.feeds == nil {
		c.feeds = map[*ChatFeed]struct{}{}
	}
	c.feeds[f] = struct{}{}
	c.mu.Unlock()
	l.readLobbyChat(ctx)
	return f
}

// SayInLobby sends text from p to the lobby's chat.
func (l *Lobby) SayInLobby(ctx context.Context, p Player, text string) error {
	line, err := l.newChatLine(p, p.Name, -1, store.ChatLobby, text)
	if err != nil {
		return err
	}
	if err := l.cfg.Store.AddChat(ctx, "", line, lobbyChatKeep); err != nil {
		return l.unavailable("lobby chat", err)
	}
	l.readLobbyChat(ctx)
	return nil
}

// readLobbyChat reads the lobby's newest chat, when a screen here follows
// it, and pushes it to every feed; of two reads that overlap, the later
// one asked wins.
func (l *Lobby) readLobbyChat(ctx context.Context) {
	c := &l.lobbyChat
	c.mu.Lock()
	if len(c.feeds) == 0 {
		c.mu.Unlock()
		return
	}
	c.asked++
	asked := c.asked
	c.mu.Unlock()
	lines, err := l.cfg.Store.Chat(ctx, "", chatRecent)
	if err != nil {
		l.storeFault("read lobby chat", err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if asked <= c.taken {
		return
	}
	c.taken = asked
	for f := range c.feeds {
		f.push(lines)
	}
}
