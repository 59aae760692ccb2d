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

// errNoChat is the answer of a server whose store keeps no chat.
var errNoChat = errors.New("this server keeps no chat")

// chatStore is the lobby's store as a ChatStore, if it is one.
func (l *Lobby) chatStore() (ChatStore, bool) {
	s, ok := l.cfg.Store.(ChatStore)
	return s, ok
}

// newChatLine cleans what p typed into a line for channel, or says why it
// cannot be sent. "/me waves" is an action.
func (l *Lobby) newChatLine(p Player, name string, seat int, channel, text string) (ChatLine, error) {
	me := false
	if rest, ok := strings.CutPrefix(text, "/me "); ok {
		me, text = true, rest
	}
	text = CleanText(text)
	switch n := len([]rune(text)); {
	case n == 0:
		return ChatLine{}, errors.New("nothing to send: the message is empty once control characters are removed")
	case n > MaxChatLength:
		return ChatLine{}, fmt.Errorf("a message has at most %d characters; that one has %d and was not sent", MaxChatLength, n)
	}
	if err := l.allowChat(p); err != nil {
		return ChatLine{}, err
	}
	name = CleanText(name)
	if r := []rune(name); len(r) > maxNameLength {
		name = string(r[:maxNameLength])
	}
	return ChatLine{ID: randomLetters(10), At: l.cfg.Now().UTC(), Name: name, Seat: seat, Channel: channel, Text: text, Me: me}, nil
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
	store, ok := r.l.chatStore()
	if !ok {
		return errNoChat
	}
	r.mu.Lock()
	name, channel := c.player.Name, ChatSpectators
	if c.seat >= 0 && c.seat < len(r.meta.Seats) {
		name, channel = r.meta.Seats[c.seat].Name, ChatPlayers
	}
	code := r.meta.Code
	r.mu.Unlock()
	line, err := r.l.newChatLine(c.player, name, c.seat, channel, text)
	if err != nil {
		return err
	}
	if err := store.AddChat(ctx, code, line, chatKeep); err != nil {
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
	store, ok := r.l.chatStore()
	if !ok {
		return
	}
	r.mu.Lock()
	r.chatAsked++
	asked, code := r.chatAsked, r.meta.Code
	r.mu.Unlock()
	lines, err := store.Chat(ctx, code, chatRecent)
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
func (r *room) recentChat() []ChatLine { return slices.Clip(r.chat) }

// chatChanged catches up with a chat another instance wrote to: the
// lobby's (code "") or a room's held here.
func (l *Lobby) chatChanged(ctx context.Context, code string) {
	if code == "" {
		l.readLobbyChat(ctx, nil)
		return
	}
	if r := l.cached(code); r != nil {
		r.readChat(ctx)
	}
}

// deleteChat forgets the chat of a room that is gone.
func (l *Lobby) deleteChat(ctx context.Context, code string) {
	if s, ok := l.chatStore(); ok {
		if err := s.DeleteChat(ctx, code); err != nil {
			l.storeFault("delete chat", err, "code", code)
		}
	}
}

// ReplayChat returns everything said in the finished game in the room
// invite names, for its replay; p may read it if they may replay the game.
func (l *Lobby) ReplayChat(ctx context.Context, invite string, p Player) ([]ChatLine, error) {
	store, ok := l.chatStore()
	if !ok {
		return nil, nil
	}
	var code string
	_, err := l.lookup(ctx, invite, p, func(c string) (Meta, error) {
		m, _, err := l.cfg.Store.Load(ctx, c, math.MaxInt)
		if err != nil && !errors.Is(err, ErrNotFound) {
			err = l.unavailable("load room "+c, err)
		}
		code = m.Code
		return m, err
	})
	if err != nil {
		return nil, err
	}
	lines, err := store.Chat(ctx, code, 0)
	if err != nil {
		return nil, l.unavailable("read chat of room "+code, err)
	}
	return lines, nil
}

// lobbyChat is the lobby's chat as this instance follows it: only while a
// lobby screen here shows it.
type lobbyChat struct {
	mu    sync.Mutex
	feeds map[*ChatFeed]struct{}
	asked int // reads of the store asked for, to order what they deliver
}

// ChatFeed delivers the lobby's chat to one screen: its newest lines
// each time they change, the newest replacing any unread.
type ChatFeed struct {
	l     *Lobby
	lines chan []ChatLine
	// notify is told of every delivery (OnLines); the lobby chat's lock
	// guards it, and taken.
	notify func()
	// taken is the last read delivered here (lobbyChat.asked): a read
	// asked before it holds older lines.
	taken int
}

// Lines delivers the lobby's newest chat lines, oldest first; the first
// delivery comes once they are read from the store.
func (f *ChatFeed) Lines() <-chan []ChatLine { return f.lines }

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

// take delivers lines read by the read asked-th, unless the feed has had
// a later read's. The caller holds the lobby chat's lock.
func (f *ChatFeed) take(lines []ChatLine, asked int) {
	if asked <= f.taken {
		return
	}
	f.taken = asked
	f.push(lines)
}

// push replaces an unread delivery with lines. The caller holds the
// lobby chat's lock, so each feed has one writer.
func (f *ChatFeed) push(lines []ChatLine) {
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
	f := &ChatFeed{l: l, lines: make(chan []ChatLine, 1)}
	c := &l.lobbyChat
	c.mu.Lock()
	if c.feeds == nil {
		c.feeds = map[*ChatFeed]struct{}{}
	}
	c.feeds[f] = struct{}{}
	c.mu.Unlock()
	// The other feeds have the newest lines already: telling them again
	// would redraw every lobby screen for every player who opens one.
	l.readLobbyChat(ctx, f)
	return f
}

// SayInLobby sends text from p to the lobby's chat.
func (l *Lobby) SayInLobby(ctx context.Context, p Player, text string) error {
	store, ok := l.chatStore()
	if !ok {
		return errNoChat
	}
	line, err := l.newChatLine(p, p.Name, -1, ChatLobby, text)
	if err != nil {
		return err
	}
	if err := store.AddChat(ctx, "", line, lobbyChatKeep); err != nil {
		return l.unavailable("lobby chat", err)
	}
	l.readLobbyChat(ctx, nil)
	return nil
}

// readLobbyChat reads the lobby's newest chat, when a screen here follows
// it, and pushes it to feed only, or to every feed when feed is nil; of
// two reads that overlap, the later one asked wins at every feed.
func (l *Lobby) readLobbyChat(ctx context.Context, feed *ChatFeed) {
	store, ok := l.chatStore()
	c := &l.lobbyChat
	c.mu.Lock()
	if !ok || len(c.feeds) == 0 {
		c.mu.Unlock()
		return
	}
	c.asked++
	asked := c.asked
	c.mu.Unlock()
	lines, err := store.Chat(ctx, "", chatRecent)
	if err != nil {
		l.storeFault("read lobby chat", err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if feed != nil {
		if _, ok := c.feeds[feed]; ok {
			feed.take(lines, asked)
		}
		return
	}
	for f := range c.feeds {
		f.take(lines, asked)
	}
}
