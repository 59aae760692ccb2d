// Package lobby owns rooms: it seats players, routes their moves to the
// game's rules, stores every accepted move before anyone sees its result,
// and pushes each seat's view to every connected session. It stores and
// routes states, moves and views as JSON without understanding them.
package lobby

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/ratelog"
)

// Player is a person at a terminal. ID binds them to seats: their
// profile's (profiles.go), which every key linked to it shares; guests get
// a fresh ID per connection.
type Player struct {
	ID string
	// Key is the fingerprint of the SSH key the player connected with
	// (empty for guests): bans, per-key limits and failed lookups count
	// by it, not by the profile.
	Key   string
	Name  string
	Guest bool
	// Addr is where the player connects from as the server's per-address
	// limits count it ("203.0.113.7", or an IPv6 /64); empty when the
	// server does not count by address. Failed room lookups are counted
	// by it as well as by ID (lookups.go).
	Addr string
	// From is where the player connects from (an IPv6 /64), whatever the
	// limits: a guest's seat word opens their seat only from the address
	// they sat down from (seatword.go). Empty when unknown.
	From string
}

// Game is one game the lobby offers: its rules and its computer players.
type Game struct {
	Rules engine.Ruleset
	// Bots may be zero: rooms of the game then have no bots.
	Bots engine.Bots
	// SoloOpponent names the game's own opponent in a solo game with
	// the given options ("The Machine (hard)"), for its player's solo
	// record; nil when the game has none, and solo games count nowhere.
	SoloOpponent func(options map[string]string) string
}

// Name is the game's stored identifier.
func (g Game) Name() string { return g.Rules.Name() }

// Titles words the games' titles for a sentence: "A", "A and B",
// "A, B and C".
func Titles(games []Game) string {
	var titles []string
	for _, g := range games {
		titles = append(titles, g.Rules.Title())
	}
	if len(titles) < 2 {
		return strings.Join(titles, "")
	}
	return strings.Join(titles[:len(titles)-1], ", ") + " and " + titles[len(titles)-1]
}

// HasBot reports whether the game has a bot called name.
func (g Game) HasBot(name string) bool {
	return g.Bots.New != nil && slices.Contains(g.Bots.Names, name)
}

// Config sets up a Lobby.
type Config struct {
	Store Store
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
	// hearing from it again; it renews its claim every third of that.
	// 0 means DefaultPresenceTTL.
	PresenceTTL time.Duration
	// Seeds draws the seed of every room made without a chosen one,
	// rematches too; nil means 64 bits from crypto/rand. Tests set it for
	// games they can replay that still count like any other.
	Seeds func() uint64
}

// Lobby is the set of rooms this server instance serves.
type Lobby struct {
	cfg   Config
	games map[string]Game
	mu    sync.Mutex
	rooms map[string]*room
	// loading makes one load per room code at a time, outside mu, so a
	// slow store holds up only the joins of the room being loaded.
	loading singleflight.Group
	// started is when this lobby began serving: a seat not held since was
	// left before it, by a session of an earlier process.
	started time.Time
	// presence is the store as shared presence, nil with a store of
	// this instance's own.
	presence     Presence
	presenceKick chan struct{}
	dueMu        sync.Mutex
	presenceDue  map[*room]bool // rooms whose seats held here changed
	// ownMisses counts failed lookups for a store that does not.
	ownMisses missCounts
	// profilesSwept is when Run last expired profiles; only Run uses it.
	profilesSwept time.Time
	// The lobby's chat and everyone's chat allowance (chatting.go).
	lobbyChat lobbyChat
	chatRates chatRates
	// feed tells lobby screens when room lists change (feed.go).
	feed roomFeed
	// listed is the room list lobby screens share, and public the last
	// read of the public rooms (listing.go).
	listed roomList
	public publicRooms
	// faults logs store errors once per burst (faults.go).
	faults *ratelog.Logger
}

// Changes is implemented by stores shared between server instances: it
// delivers the code of every room that changed elsewhere, so this instance
// catches up and pushes the new view to its sessions.
type Changes interface {
	Changes(ctx context.Context) <-chan string
}

// New returns a lobby over cfg.Store.
func New(cfg Config) *Lobby {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	l := &Lobby{cfg: cfg, games: map[string]Game{}, rooms: map[string]*room{},
		started: cfg.Now().UTC().Truncate(time.Millisecond), presenceKick: make(chan struct{}, 1),
		presenceDue: map[*room]bool{}, faults: newFaultLog(cfg.Logger)}
	l.presence, _ = cfg.Store.(Presence)
	for _, g := range cfg.Games {
		l.games[g.Name()] = g
	}
	return l
}

// Games lists the games rooms can play, the default first.
func (l *Lobby) Games() []Game { return slices.Clone(l.cfg.Games) }

// Game returns the game called name; "" is the default game.
func (l *Lobby) Game(name string) (Game, bool) {
	if name == "" && len(l.cfg.Games) > 0 {
		return l.cfg.Games[0], true
	}
	g, ok := l.games[name]
	return g, ok
}

// Run does the lobby's background work until ctx ends: expiring abandoned
// rooms and, with a shared store, following changes made elsewhere and
// sharing which seats sessions here hold. With a shared store it returns
// only after withdrawing this instance's claims on seats, so close the
// store after Run returns.
func (l *Lobby) Run(ctx context.Context) {
	if l.presence != nil {
		shared := make(chan struct{})
		go func() {
			defer close(shared)
			l.sharePresence(ctx, l.presence)
		}()
		defer func() { <-shared }()
	}
	if c, ok := l.cfg.Store.(Changes); ok {
		go func() {
			for code := range c.Changes(ctx) {
				if chat, ok := strings.CutPrefix(code, chatChange("")); ok {
					l.chatChanged(ctx, chat)
					continue
				}
				l.mu.Lock()
				r := l.rooms[code]
				l.mu.Unlock()
				if r != nil {
					r.refresh(ctx)
				}
				// Rooms not loaded here are listed too, from the store.
				l.roomsChanged()
			}
		}()
	}
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		l.ExpireRooms(ctx)
		l.expireProfilesEvery(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// CreateOptions describe a new room.
type CreateOptions struct {
	Game   string // default: the first configured game
	Seats  int
	Public bool
	// Options are the game's options as JSON, which its rules validate.
	Options json.RawMessage
	// Seed, when HasSeed, is the game's seed instead of a secret one
	// drawn for the room: it makes a practice room (Meta.Practice).
	Seed    uint64
	HasSeed bool
	Bots    []string // bots for the last seats
	// Grace is how long a player may be away before the table may hand
	// their seat to a bot (table.go); 0 means DefaultGrace.
	Grace time.Duration
	// Clock is each seat's time for a turn (clock.go): 0 means the
	// default (DefaultPublicClock for a public room of two seats or more,
	// none otherwise), ClockOff none.
	Clock time.Duration
}

// Create opens a room and returns its metadata; nobody is seated yet. A
// private room's Invite is in it, for its host to share.
func (l *Lobby) Create(ctx context.Context, host Player, o CreateOptions) (Meta, error) {
	g, ok := l.Game(o.Game)
	if !ok {
		return Meta{}, fmt.Errorf("this server has no game %q", o.Game)
	}
	if lo, hi := g.Rules.Seats(); o.Seats < lo || o.Seats > hi {
		return Meta{}, fmt.Errorf("a game of %s has %d to %d seats", g.Rules.Title(), lo, hi)
	}
	if len(o.Bots) >= o.Seats {
		return Meta{}, errors.New("leave at least one seat for a person")
	}
	if err := l.checkRoomQuota(ctx, host); err != nil {
		return Meta{}, err
	}
	seed := o.Seed
	if !o.HasSeed {
		seed = l.newSeed()
	}
	// Check the options now, so a bad one is refused at creation.
	if _, err := g.Rules.New(o.Seats, o.Options, seed); err != nil {
		return Meta{}, err
	}
	grace, clock, err := o.times(g)
	if err != nil {
		return Meta{}, err
	}
	now := l.cfg.Now().UTC()
	m := Meta{Game: g.Name(), Public: o.Public, Host: host.ID, Seats: make([]Seat, o.Seats),
		Options: o.Options, Seed: seed, Practice: o.HasSeed, Created: now, Updated: now, Version: 1, Grace: grace, Clock: clock}
	if host.Guest {
		m.HostAddr = host.Addr
	}
	if !o.Public {
		m.Secret = newSecret()
	}
	for i, b := range o.Bots {
		if err := checkBot(g, b); err != nil {
			return Meta{}, err
		}
		m.Seats[o.Seats-len(o.Bots)+i] = Seat{Bot: b, Name: botName(b, o.Seats-len(o.Bots)+i)}
	}
	for range 10 {
		m.Code = newCode()
		err := l.cfg.Store.Create(ctx, m)
		if errors.Is(err, ErrExists) {
			continue
		}
		if err != nil {
			return Meta{}, l.unavailable("create room", err)
		}
		l.cfg.Logger.Info("room created", "code", m.Code, "game", m.Game, "seats", o.Seats, "public", o.Public, "practice", o.HasSeed)
		l.roomsChanged()
		return m, nil
	}
	return Meta{}, errors.New("no free room code found: try again")
}

func checkBot(g Game, name string) error {
	if g.Bots.New == nil {
		return fmt.Errorf("%s has no bots on this server", g.Rules.Title())
	}
	if !g.HasBot(name) {
		return fmt.Errorf("%s has no bot %q: choose %s", g.Rules.Title(), name, strings.Join(g.Bots.Names, " or "))
	}
	return nil
}

// ErrUnavailable is what a player is told when the store cannot be reached
// or fails; the cause goes to the log, not to the player's screen.
var ErrUnavailable = errors.New("the game service is unavailable right now: try again in a moment")

// unavailable counts and logs what failed (once per burst of what) and
// returns ErrUnavailable for the player.
func (l *Lobby) unavailable(what string, err error, attrs ...any) error {
	l.storeFault(what, err, attrs...)
	return ErrUnavailable
}

func botName(bot string, seat int) string { return fmt.Sprintf("%s bot %d", bot, seat+1) }

// Join seats p in the room invite names (its code; a private room's
// invite, unless p holds a seat there or is its host), or back in the seat
// bound to their key, and returns a connection that receives the seat's
// view. A guest coming back adds their seat word: "CODE WORD"
// (seatword.go).
func (l *Lobby) Join(ctx context.Context, invite string, p Player) (*Conn, error) {
	invite, word := SplitSeatWord(invite)
	r, _, err := l.openAs(ctx, invite, word, p)
	if err != nil {
		return nil, err
	}
	// A seat binds to a profile: a new key's is made as it sits down,
	// not for a room it cannot sit in.
	r.mu.Lock()
	sits := r.meta.SeatOf(p.ID) < 0 && !r.meta.Started && slices.ContainsFunc(r.meta.Seats, Seat.Free)
	r.mu.Unlock()
	if sits {
		if p, err = l.ensureProfile(ctx, p, ""); err != nil {
			return nil, err
		}
	}
	return r.join(ctx, p, word)
}

// Watch connects p as a spectator of the room invite names: the public
// view only.
func (l *Lobby) Watch(ctx context.Context, invite string, p Player) (*Conn, error) {
	invite, word := SplitSeatWord(invite)
	r, share, err := l.openAs(ctx, invite, word, p)
	if err != nil {
		return nil, err
	}
	return r.watch(p, share), nil
}

// Info returns the public description of the room invite names, as p
// would find it joining.
func (l *Lobby) Info(ctx context.Context, invite string, p Player) (RoomInfo, error) {
	invite, word := SplitSeatWord(invite)
	r, _, err := l.openAs(ctx, invite, word, p)
	if err != nil {
		return RoomInfo{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.info(), nil
}

// Rooms lists the public rooms that are not finished, newest first.
func (l *Lobby) Rooms(ctx context.Context) ([]RoomInfo, error) {
	return l.list(ctx, func(m Meta) bool { return m.Public && !m.Over })
}

// History lists the rooms where player holds a seat, finished or not,
// most recently played first.
func (l *Lobby) History(ctx context.Context, player string) ([]RoomInfo, error) {
	return l.list(ctx, func(m Meta) bool { return m.SeatOf(player) >= 0 })
}

func (l *Lobby) list(ctx context.Context, keep func(Meta) bool) ([]RoomInfo, error) {
	metas, err := l.metas(ctx)
	if err != nil {
		return nil, l.unavailable("list rooms", err)
	}
	var out []RoomInfo
	for _, m := range metas {
		if !keep(m) {
			continue
		}
		l.mu.Lock()
		r := l.rooms[m.Code]
		l.mu.Unlock()
		if r != nil {
			r.mu.Lock()
			out = append(out, r.info())
			r.mu.Unlock()
			continue
		}
		info := infoOf(m, nil, m.status())
		if l.presence == nil {
			// Not loaded since this server started, so nobody has sat
			// here since: see room.awaySince.
			for i := range info.Seats {
				if s := &info.Seats[i]; !s.Free && s.Bot == "" {
					s.AwaySince = l.started
				}
			}
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b RoomInfo) int { return cmp.Compare(b.Updated.UnixNano(), a.Updated.UnixNano()) })
	return out, nil
}

// AddBot puts a bot in a free seat: only the room's host may, or while
// the host is away the player standing in. On the seat of a player who is
// away it is by's vote to hand the seat to the game's default bot (Vote).
func (l *Lobby) AddBot(ctx context.Context, code string, by Player, seat int, bot string) error {
	r, err := l.room(ctx, code)
	if err != nil {
		return err
	}
	// The game, unlike r.meta, is fixed for the room's life: no lock.
	if err := checkBot(r.game, bot); err != nil {
		return err
	}
	return r.addBot(ctx, by, seat, bot)
}

// End stops an unfinished game for good. Only the room's host may.
func (l *Lobby) End(ctx context.Context, code string, by Player) error {
	r, err := l.room(ctx, code)
	if err != nil {
		return err
	}
	return r.end(ctx, by)
}

// ExpireRooms deletes unfinished rooms untouched for longer than the
// configured expiry that nobody here is connected to.
func (l *Lobby) ExpireRooms(ctx context.Context) {
	if l.cfg.Expire <= 0 {
		return
	}
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		l.storeFault("expire rooms", err)
		return
	}
	cutoff := l.cfg.Now().Add(-l.cfg.Expire)
	for _, m := range metas {
		if m.Over || !m.Updated.Before(cutoff) || l.heldElsewhere(ctx, m.Code) {
			continue
		}
		l.mu.Lock()
		r := l.rooms[m.Code]
		busy := r != nil && r.connected()
		if !busy {
			delete(l.rooms, m.Code)
		}
		l.mu.Unlock()
		if busy {
			continue
		}
		if err := l.cfg.Store.Delete(ctx, m.Code); err != nil {
			l.storeFault("expire room", err, "code", m.Code)
			continue
		}
		l.deleteChat(ctx, m.Code)
		l.cfg.Logger.Info("room expired", "code", m.Code, "idle", l.cfg.Now().Sub(m.Updated).Round(time.Second))
		l.roomsChanged()
	}
}

// heldElsewhere reports whether a session on another instance holds a seat
// in room code, as a quiet table still in use must not expire. When the
// store cannot say, the room is kept: expiry can wait a minute.
func (l *Lobby) heldElsewhere(ctx context.Context, code string) bool {
	if l.presence == nil {
		return false
	}
	p, err := l.presence.SeatPresence(ctx, code, l.cfg.Now())
	return err != nil || len(p.Elsewhere) > 0
}

// room returns the live room for code, loading it from the store. The
// lobby's lock is held only to look the room up and to add it: the load
// and the replay run outside it, one per code at a time, so a slow store
// or a long game delays only the joins of that room.
func (l *Lobby) room(ctx context.Context, code string) (*room, error) {
	if c, _, ok := ParseInvite(code); ok {
		code = c // the host's own calls need no secret
	} else {
		code = NormalizeCode(code)
	}
	if r := l.cached(code); r != nil {
		return r, nil
	}
	ch := l.loading.DoChan(code, func() (any, error) {
		if r := l.cached(code); r != nil {
			return r, nil
		}
		// Shared by every caller waiting for this code: not bound to the
		// first caller's context, which may end first.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
		defer cancel()
		r, err := l.load(ctx, code)
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		if old := l.rooms[code]; old != nil {
			return old, nil
		}
		l.rooms[code] = r
		return r, nil
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(*room), nil
	}
}

// loadTimeout bounds loading a room from the store.
const loadTimeout = 10 * time.Second

func (l *Lobby) cached(code string) *room {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rooms[code]
}

// load reads a room from the store and replays its game.
func (l *Lobby) load(ctx context.Context, code string) (*room, error) {
	meta, moves, err := l.cfg.Store.Load(ctx, code, 0)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("room %s: %w", code, err)
	}
	if err != nil {
		return nil, l.unavailable("load room", err, "code", code)
	}
	meta = l.giveSecret(ctx, meta)
	g, ok := l.games[meta.Game]
	if !ok {
		return nil, fmt.Errorf("room %s plays %q, which this server does not offer", code, meta.Game)
	}
	r := &room{l: l, game: g, rules: g.Rules, meta: meta, conns: map[*Conn]struct{}{}, away: map[int]time.Time{}}
	if err := r.rebuild(meta, moves); err != nil {
		l.cfg.Logger.Error("room does not replay", "code", code, "err", err)
		return nil, fmt.Errorf("room %s cannot be opened: its game does not replay on this server", code)
	}
	if err := r.readPresence(ctx); err != nil {
		// Not fatal: the next change or renewal round brings it.
		l.storeFault("seat presence", err, "code", code)
	}
	if s, ok := l.chatStore(); ok {
		if r.chat, err = s.Chat(ctx, code, chatRecent); err != nil {
			l.storeFault("read chat", err, "code", code) // the next line said brings it
		}
	}
	// A game whose recording was lost (its instance died) is recorded now.
	r.mu.Lock()
	r.recordLater()
	r.mu.Unlock()
	return r, nil
}
