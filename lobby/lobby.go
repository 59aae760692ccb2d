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
	"sync"
	"time"

	"github.com/smokestack/smokestack/engine"
)

// Player is a person at a terminal. ID is their SSH key fingerprint, which
// binds them to seats; guests get a fresh ID per connection.
type Player struct {
	ID    string
	Name  string
	Guest bool
}

// BotFunc plays one seat: given the seat's view, it returns a move.
type BotFunc func(view json.RawMessage) (json.RawMessage, error)

// BotMaker makes the bot called name for a seat of game.
type BotMaker func(game, name string, seed uint64) (BotFunc, error)

// Config sets up a Lobby.
type Config struct {
	Store Store
	// Games are the rulesets rooms can play, by Ruleset.Name.
	Games []engine.Ruleset
	// Bots makes bot players; nil means rooms have no bots.
	Bots BotMaker
	// BotDelay paces bots in rooms with people, so moves can be followed.
	BotDelay time.Duration
	// Expire removes unfinished rooms nobody touched for this long
	// (0 keeps them forever). Finished games stay in players' history.
	Expire time.Duration
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
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
}

// Lobby is the set of rooms this server instance serves.
type Lobby struct {
	cfg   Config
	games map[string]engine.Ruleset
	mu    sync.Mutex
	rooms map[string]*room
	// started is when this lobby began serving: a seat not held since was
	// left before it, by a session of an earlier process.
	started time.Time
	// presence is the store as shared presence, nil with a store of
	// this instance's own.
	presence     Presence
	presenceKick chan struct{}
	dueMu        sync.Mutex
	presenceDue  map[*room]bool // rooms whose seats held here changed
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
	l := &Lobby{cfg: cfg, games: map[string]engine.Ruleset{}, rooms: map[string]*room{},
		started: cfg.Now().UTC().Truncate(time.Millisecond), presenceKick: make(chan struct{}, 1),
		presenceDue: map[*room]bool{}}
	l.presence, _ = cfg.Store.(Presence)
	for _, g := range cfg.Games {
		l.games[g.Name()] = g
	}
	return l
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
				l.mu.Lock()
				r := l.rooms[code]
				l.mu.Unlock()
				if r != nil {
					r.refresh(ctx)
				}
			}
		}()
	}
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		l.ExpireRooms(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// CreateOptions describe a new room.
type CreateOptions struct {
	Game       string // default: the first configured game
	Seats      int
	Public     bool
	Difficulty string // solo opponent level
	Seed       uint64
	HasSeed    bool     // use Seed instead of a random one
	Bots       []string // bots for the last seats
}

// Create opens a room and returns its metadata; nobody is seated yet.
func (l *Lobby) Create(ctx context.Context, host Player, o CreateOptions) (Meta, error) {
	game := o.Game
	if game == "" && len(l.cfg.Games) > 0 {
		game = l.cfg.Games[0].Name()
	}
	rules, ok := l.games[game]
	if !ok {
		return Meta{}, fmt.Errorf("unknown game %q", game)
	}
	if o.Seats < 1 || o.Seats > 5 {
		return Meta{}, errors.New("a room has 1 to 5 seats")
	}
	if len(o.Bots) >= o.Seats {
		return Meta{}, errors.New("leave at least one seat for a person")
	}
	if err := l.checkRoomQuota(ctx, host); err != nil {
		return Meta{}, err
	}
	seed := o.Seed
	if !o.HasSeed {
		seed = randomSeed()
	}
	var opts json.RawMessage
	if o.Difficulty != "" {
		opts, _ = json.Marshal(map[string]string{"difficulty": o.Difficulty})
	}
	// Check the options now, so a bad difficulty is refused at creation.
	if _, err := rules.New(o.Seats, opts, seed); err != nil {
		return Meta{}, err
	}
	now := l.cfg.Now().UTC()
	m := Meta{Game: game, Public: o.Public, Host: host.ID, Seats: make([]Seat, o.Seats),
		Options: opts, Seed: seed, Created: now, Updated: now, Version: 1}
	for i, b := range o.Bots {
		if err := l.checkBot(game, b); err != nil {
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
			return Meta{}, fmt.Errorf("create room: %w", err)
		}
		l.cfg.Logger.Info("room created", "code", m.Code, "seats", o.Seats, "public", o.Public, "seed", seed)
		return m, nil
	}
	return Meta{}, errors.New("create room: no free code found, try again")
}

func (l *Lobby) checkBot(game, name string) error {
	if l.cfg.Bots == nil {
		return errors.New("this server has no bots")
	}
	_, err := l.cfg.Bots(game, name, 0)
	return err
}

func botName(bot string, seat int) string { return fmt.Sprintf("%s bot %d", bot, seat+1) }

// Join seats p in the room (or back in the seat bound to their key) and
// returns a connection that receives the seat's view.
func (l *Lobby) Join(ctx context.Context, code string, p Player) (*Conn, error) {
	r, err := l.room(ctx, code)
	if err != nil {
		return nil, err
	}
	return r.join(ctx, p)
}

// Watch connects p as a spectator: the public view only.
func (l *Lobby) Watch(ctx context.Context, code string, p Player) (*Conn, error) {
	r, err := l.room(ctx, code)
	if err != nil {
		return nil, err
	}
	return r.connect(p, engine.Spectator), nil
}

// Info returns a room's public description.
func (l *Lobby) Info(ctx context.Context, code string) (RoomInfo, error) {
	r, err := l.room(ctx, code)
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
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list rooms: %w", err)
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
		info := infoOf(m, nil, engine.Status{})
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

// AddBot puts a bot in a free seat, or hands a seat whose player has gone
// to a bot. Only the room's host may.
func (l *Lobby) AddBot(ctx context.Context, code string, by Player, seat int, bot string) error {
	r, err := l.room(ctx, code)
	if err != nil {
		return err
	}
	// The ruleset, unlike r.meta, is fixed for the room's life: no lock.
	if err := l.checkBot(r.rules.Name(), bot); err != nil {
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
		l.cfg.Logger.Warn("expire rooms", "err", err)
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
			l.cfg.Logger.Warn("expire room", "code", m.Code, "err", err)
			continue
		}
		l.cfg.Logger.Info("room expired", "code", m.Code, "idle", l.cfg.Now().Sub(m.Updated).Round(time.Second))
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

// room returns the live room for code, loading it from the store.
func (l *Lobby) room(ctx context.Context, code string) (*room, error) {
	code = NormalizeCode(code)
	l.mu.Lock()
	defer l.mu.Unlock()
	if r, ok := l.rooms[code]; ok {
		return r, nil
	}
	meta, moves, err := l.cfg.Store.Load(ctx, code)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("no room %q: check the code", code)
	}
	if err != nil {
		return nil, fmt.Errorf("load room %s: %w", code, err)
	}
	rules, ok := l.games[meta.Game]
	if !ok {
		return nil, fmt.Errorf("room %s plays %q, which this server does not know", code, meta.Game)
	}
	r := &room{l: l, rules: rules, meta: meta, conns: map[*Conn]struct{}{}, away: map[int]time.Time{}}
	if err := r.rebuild(meta, moves); err != nil {
		return nil, fmt.Errorf("room %s: %w", code, err)
	}
	if err := r.readPresence(ctx); err != nil {
		// Not fatal: the next change or renewal round brings it.
		l.cfg.Logger.Debug("seat presence", "code", code, "err", err)
	}
	l.rooms[code] = r
	return r, nil
}
