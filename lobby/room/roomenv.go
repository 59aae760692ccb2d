package room

import (
	"context"
	"log/slog"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// roomStore is what a room asks of the store besides its game's
// writes: loading rooms, making and dropping rematch rooms, its chat.
type roomStore interface {
	Create(ctx context.Context, m store.Meta) error
	Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error)
	Delete(ctx context.Context, code string) error
	store.Chats
}

// gameWrites are the store's writes of a room's game: a room reaches
// them through a writer alone (roomlocks.go), so they are made one at a
// time.
type gameWrites interface {
	Append(ctx context.Context, code string, at int, r store.Record, st engine.Status) error
	SaveMeta(ctx context.Context, m store.Meta) error
}

// Env is what rooms are made with, one value the lobby makes once:
// the store and the shared presence, the clocks, the log and fault
// reporting, the pacing they follow, and the four things a room tells
// the world around it (its listing changed, its seats held here changed,
// its game is to be recorded, a chat line is to be made). A room reaches
// nothing else: it never holds the Lobby.
type Env struct {
	Store  roomStore
	Writes gameWrites
	// presence is the store's presence shared between instances, nil
	// with a store of this instance's own.
	Presence store.Presence
	// heartbeats is when each instance sharing the store was last heard
	// alive, as the lobby last read it (zero before it has).
	Heartbeats func() store.Heartbeats
	// started is when this lobby began serving (presence.started).
	Started time.Time

	Now       func() time.Time
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// seed draws the seed of a room nobody chose one for (rematches).
	Seed   func() uint64
	Pauses *Pauses

	Log      *slog.Logger
	Observer Observer
	// fault counts and logs a store error (once per burst of what).
	Fault func(what string, err error, attrs ...any)
	// away reports whether the store does not answer now.
	Away func() bool

	BotDelay       time.Duration
	PresenceTTL    time.Duration
	MovesPerSecond float64

	// listed tells room lists that a room's listing changed.
	Listed func()
	// claim has the presence loop share r's seats held here soon.
	Claim func(r *Room)
	// record records a finished game in its players' records.
	Record func(ctx context.Context, m store.Meta) (*store.Outcome, error)
	// chatLine makes what p typed into a chat line, or refuses it (not
	// fit to send, or too fast for p's allowance).
	ChatLine func(p Player, name string, seat int, channel, text string) (store.ChatLine, error)
}

// Unavailable counts and logs what failed and returns ErrUnavailable for
// the player.
func (e *Env) Unavailable(what string, err error, attrs ...any) error {
	e.Fault(what, err, attrs...)
	return ErrUnavailable
}

// heartbeats is Heartbeats' answer, or none (every claim counts) when the
// env has no Heartbeats.
func (e *Env) heartbeats() store.Heartbeats {
	if e.Heartbeats == nil {
		return store.Heartbeats{}
	}
	return e.Heartbeats()
}

// presenceNow is the clock for presence, in milliseconds: what a shared
// store keeps, so every instance shows the very same away time.
func (e *Env) presenceNow() time.Time { return e.Now().UTC().Truncate(time.Millisecond) }
