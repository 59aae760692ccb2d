package chat

import (
	"context"
	"sync"

	"github.com/smokestack/smokestack/lobby/store"
)

// Lobby is the lobby's chat as this instance follows it: read from the
// store only while some screen here shows it, and handed to each of those
// screens through a Feed.
type Lobby struct {
	store Store
	// fault hears of a read that failed (the lobby logs and counts it).
	fault func(what string, err error)
	mu    sync.Mutex
	feeds map[*Feed]struct{}
	asked int // reads of the store asked for, to order what they deliver
}

// NewLobby follows the lobby's chat in s; fault hears of failed reads.
func NewLobby(s Store, fault func(what string, err error)) *Lobby {
	return &Lobby{store: s, fault: fault}
}

// Follow opens a feed of the lobby's chat, and reads it. Close the feed
// when the screen no longer shows the chat.
func (c *Lobby) Follow(ctx context.Context) *Feed {
	f := &Feed{c: c, lines: make(chan []store.ChatLine, 1)}
	c.mu.Lock()
	if c.feeds == nil {
		c.feeds = map[*Feed]struct{}{}
	}
	c.feeds[f] = struct{}{}
	c.mu.Unlock()
	// The other feeds have the newest lines already: telling them again
	// would redraw every lobby screen for every player who opens one.
	c.read(ctx, f)
	return f
}

// Read reads the lobby's newest chat, when a screen here follows it, and
// pushes it to every feed; of two reads that overlap, the later one
// asked wins at every feed.
func (c *Lobby) Read(ctx context.Context) { c.read(ctx, nil) }

// read reads the lobby's newest chat and pushes it to feed only, or to
// every feed when feed is nil.
func (c *Lobby) read(ctx context.Context, feed *Feed) {
	c.mu.Lock()
	if len(c.feeds) == 0 {
		c.mu.Unlock()
		return
	}
	c.asked++
	asked := c.asked
	c.mu.Unlock()
	lines, err := c.store.Chat(ctx, "", Recent)
	if err != nil {
		c.fault("read lobby chat", err)
		return
	}
	l := c.lock()
	defer l.unlock()
	if feed != nil {
		if _, ok := l.feeds[feed]; ok {
			l.deliver(feed, lines, asked)
		}
		return
	}
	for f := range l.feeds {
		l.deliver(f, lines, asked)
	}
}

// locked is the lobby chat with its lock held: what needs the lock is a
// method of it.
type locked struct{ *Lobby }

func (c *Lobby) lock() locked {
	c.mu.Lock()
	return locked{c}
}

func (l locked) unlock() { l.mu.Unlock() }

// deliver hands f the lines read by the read asked-th, unless f has had
// a later read's, replacing an unread delivery: under the lock, each feed
// has one writer.
func (l locked) deliver(f *Feed, lines []store.ChatLine, asked int) {
	if asked <= f.taken {
		return
	}
	f.taken = asked
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

// Feed delivers the lobby's chat to one screen: its newest lines each
// time they change, the newest replacing any unread.
type Feed struct {
	c     *Lobby
	lines chan []store.ChatLine
	// notify is told of every delivery (OnLines); the lobby chat's lock
	// guards it, and taken.
	notify func()
	// taken is the last read delivered here (Lobby.asked): a read asked
	// before it holds older lines.
	taken int
}

// Lines delivers the lobby's newest chat lines, oldest first; the first
// delivery comes once they are read from the store.
func (f *Feed) Lines() <-chan []store.ChatLine { return f.lines }

// OnLines has fn called every time lines are put in Lines, and at once if
// some are waiting already, so a screen can take them as they come
// instead of keeping a goroutine waiting on Lines. It is called holding
// the lobby chat's lock: fn must hand the news on and return without
// calling back into the lobby.
func (f *Feed) OnLines(fn func()) {
	f.c.mu.Lock()
	f.notify = fn
	pending := len(f.lines) > 0
	f.c.mu.Unlock()
	if pending && fn != nil {
		fn()
	}
}

// Close stops the feed.
func (f *Feed) Close() {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	delete(f.c.feeds, f)
}
