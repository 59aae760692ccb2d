// Package lobby finds, makes, lists and opens rooms for players: it
// wires the rooms (package room, which play the games) with the store,
// and serves lookups, invites, listings, identity and chat as services
// with one job each. It stores and routes states, moves and views as
// JSON without understanding them.
package lobby

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/internal/ratelog"
	"github.com/smokestack/smokestack/lobby/chat"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// Config sets up a Lobby.
type Config struct {
	// Store keeps rooms, players, chat and bans; its Cluster, if any,
	// shares presence and changes with the other instances.
	Store store.Store
	// Games are the games rooms can play; the first is the default.
	Games []Game
	// BotDelay paces bots in rooms with people, so moves can be followed.
	BotDelay time.Duration
	// Expire removes unfinished rooms nobody touched for this long
	// (0 keeps them forever). Finished games stay in players' history.
	Expire time.Duration
	// ProfileExpire forgets profiles made longer ago than this that hold
	// no seat in any room and no rating (profileexpiry.go; 0 keeps them).
	ProfileExpire time.Duration
	Logger        *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// AfterFunc runs f once d has passed on the clock Now reads, and
	// returns what stops it: the rooms' timers for bots, clocks and
	// handovers. nil means time.AfterFunc; tests give a clock they move.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Limits bound what one player can make the lobby do (limits.go).
	Limits Limits
	// Observer hears about moves, store errors and bots, for metrics; nil
	// means nobody (observe.go).
	Observer Observer
	// PresenceTTL is, with a store shared between instances, how long the
	// others believe this instance's sessions hold their seats without
	// hearing its heartbeat, which it says every third of that.
	// 0 means DefaultPresenceTTL.
	PresenceTTL time.Duration
	// ExpiryLease is, with a store shared between instances, how long
	// the lease that lets one instance at a time run the expiry passes
	// (expiry.go) outlives its holder's last renewal: when the holder
	// dies, another instance takes over within it. The holder renews it
	// every third of that. 0 means DefaultExpiryLease.
	ExpiryLease time.Duration
	// ReconnectWindow is the least time every seat has after a restart
	// before its clock runs out or it goes to a bot (pauses.go); 0 means
	// DefaultReconnectWindow.
	ReconnectWindow time.Duration
	// Seeds draws the seed of every room made without a chosen one,
	// rematches too; nil means 64 bits from crypto/rand. Tests set it for
	// games they can replay that still count like any other.
	Seeds func() uint64
}

// Lobby is the set of rooms this server instance serves. It wires the
// services it is made of, each with one job and its own dependencies:
// access (the rooms loaded here and the lookups that open them),
// listing (what room lists show), identity (who plays), chatting (what
// people say) and claims (the seats held here, for other instances).
type Lobby struct {
	*access
	*listing
	*identity
	*chatting
	*claims
	*offered
	cfg Config
	// started is when this lobby began serving: a seat not held since was
	// left before it, by a session of an earlier process.
	started time.Time
	// cluster is the store's part shared between instances, nil with a
	// store of this instance's own.
	cluster store.Cluster
	// profilesSwept is when Run last expired profiles; only Run uses it.
	profilesSwept time.Time
	// expiry is this instance's hold on the expiry lease (expiry.go).
	expiry expiryLease
	// players are the profiles and records of who plays here.
	players *players.Players
	// faults logs store errors once per burst (faults.go).
	faults *ratelog.Logger
	// away is set while the store does not answer (faults.go).
	away atomic.Bool
	// pauses are the service's downtimes, when no clock runs (pauses.go).
	pauses *room.Pauses
}

// New returns a lobby over cfg.Store.
func New(cfg Config) *Lobby {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	l := &Lobby{cfg: cfg, offered: newOffered(cfg.Games),
		started: cfg.Now().UTC().Truncate(time.Millisecond), faults: newFaultLog(cfg.Logger), pauses: room.NewPauses(cfg.ReconnectWindow)}
	l.cluster = cfg.Store.Cluster()
	l.players = players.New(players.Config{Store: cfg.Store, Now: cfg.Now, Logger: cfg.Logger, Fault: l.storeFault,
		Unavailable: func(what string, err error) error { return l.unavailable(what, err) }})
	// The services, each made with what it needs. Rooms tell listing and
	// chatting of their changes, so those come before access, which makes
	// the rooms; what they ask of access is handed them once it exists.
	l.listing = &listing{store: cfg.Store, now: cfg.Now, shared: l.cluster != nil, started: l.started, unavailable: l.unavailable}
	l.chatting = &chatting{store: cfg.Store, now: cfg.Now, perMinute: cfg.Limits.ChatPerMinute, observer: l.observer(),
		fault: l.storeFault, unavailable: l.unavailable, lobby: chat.NewLobby(cfg.Store, func(what string, err error) { l.storeFault(what, err) })}
	l.claims = newClaims(cfg.PresenceTTL, cfg.Now)
	l.access = &access{env: l.newRoomEnv(), store: cfg.Store, games: l.byName, limits: cfg.Limits, cluster: l.cluster, rooms: map[string]*room.Room{}}
	l.listing.live, l.claims.loadedRooms, l.claims.fault = l.access.info, l.access.loaded, l.storeFault
	l.chatting.loadedRoom, l.chatting.mayOpen = l.access.cached, l.access.lookup
	l.identity = &identity{players: l.players, now: cfg.Now, limits: cfg.Limits, observer: l.observer(), unavailable: l.unavailable,
		counts: l.access.misses(), lookupBarred: l.access.barred, countLookupMiss: l.access.countMiss, history: l.listing.History,
		offeredGames: l.offered.gameNames()}
	return l
}

// Run does the lobby's background work until ctx ends: saying in the
// store that the service runs (pauses.go), expiring abandoned rooms and
// profiles while this instance holds the expiry lease (expiry.go) and,
// with a shared store, following changes made elsewhere, saying on a
// heartbeat that this instance is alive, and sharing which seats
// sessions here hold. With a shared store it returns
// only after withdrawing this instance's claims on seats and releasing
// the expiry lease, so close the store after Run returns.
func (l *Lobby) Run(ctx context.Context) {
	l.pauses.Start()
	alive := make(chan struct{})
	go func() {
		defer close(alive)
		l.stayAlive(ctx)
	}()
	defer func() { <-alive }()
	if l.cluster != nil {
		shared := make(chan struct{})
		go func() {
			defer close(shared)
			l.sharePresence(ctx, l.cluster)
		}()
		defer func() { <-shared }()
		go l.pollLists(ctx)
		go func() {
			for c := range l.cluster.Changes(ctx) {
				l.changed(ctx, c)
			}
		}()
	}
	l.expireWhileHeld(ctx)
}

// changed takes in one piece of news from the other instances.
func (l *Lobby) changed(ctx context.Context, c store.Change) {
	switch c.Kind {
	case store.ChatChange:
		l.chatChanged(ctx, c.Code)
		return
	case store.RoomChange:
		if r := l.cached(c.Code); r != nil {
			r.RefreshSoon(ctx) // on the room's own goroutine
		}
	case store.SeatsChange:
		if r := l.cached(c.Code); r != nil {
			r.ReadPresenceSoon(ctx)
		}
	}
	// Rooms not loaded here are listed too, from the store.
	l.roomsChanged()
}

// unavailable counts and logs what failed (once per burst of what) and
// returns ErrUnavailable for the player.
func (l *Lobby) unavailable(what string, err error, attrs ...any) error {
	l.storeFault(what, err, attrs...)
	return ErrUnavailable
}
