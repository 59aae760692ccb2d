package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

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
	// their seat to a bot (votes.go); 0 means DefaultGrace.
	Grace time.Duration
	// Clock is each seat's time for a turn (clock.go): 0 means the
	// default (DefaultPublicClock for a public room of two seats or more,
	// none otherwise), ClockOff none.
	Clock time.Duration
}

// Create opens a room and returns its metadata; nobody is seated yet. A
// private room's Invite is in it, for its host to share.
func (l *Lobby) Create(ctx context.Context, host Player, o CreateOptions) (store.Meta, error) {
	g, ok := l.Game(o.Game)
	if !ok {
		return store.Meta{}, room.NoGame(fmt.Sprintf("%q", o.Game))
	}
	if lo, hi := g.Rules.Seats(); o.Seats < lo || o.Seats > hi {
		return store.Meta{}, room.Refuse(fmt.Sprintf("a game of %s has %d to %d seats", g.Rules.Title(), lo, hi), "lobby.seatRange",
			engine.Str("Game", g.Rules.Title()), engine.Num("Min", lo), engine.Num("Max", hi))
	}
	if len(o.Bots) >= o.Seats {
		return store.Meta{}, room.Refuse("leave at least one seat for a person", "lobby.seatForPerson")
	}
	if err := l.checkRoomQuota(ctx, host); err != nil {
		return store.Meta{}, err
	}
	// A room is its host's: a new key's profile is made now, and a key
	// refused one makes no room.
	host, err := l.ensureProfile(ctx, host, "")
	if err != nil {
		return store.Meta{}, err
	}
	seed := o.Seed
	if !o.HasSeed {
		seed = l.newSeed()
	}
	// Check the options now, so a bad one is refused at creation.
	if _, err := g.Rules.New(o.Seats, o.Options, seed); err != nil {
		return store.Meta{}, err
	}
	grace, clock, err := o.times(g)
	if err != nil {
		return store.Meta{}, err
	}
	now := l.cfg.Now().UTC()
	m := store.Meta{Game: g.Name(), Public: o.Public, Host: host.ID, Seats: make([]store.Seat, o.Seats),
		Options: o.Options, Seed: seed, Practice: o.HasSeed, Created: now, Updated: now, Version: 1, Grace: grace, Clock: clock}
	m.HostAddr = host.Addr // counted by the quotas of its address
	if !o.Public {
		m.Secret = room.NewSecret()
	}
	for i, b := range o.Bots {
		if err := room.CheckBot(g, b); err != nil {
			return store.Meta{}, err
		}
		m.Seats[o.Seats-len(o.Bots)+i] = store.Seat{Bot: b, Name: room.BotName(b, o.Seats-len(o.Bots)+i)}
	}
	for range 10 {
		m.Code = room.NewCode()
		err := l.cfg.Store.Create(ctx, m)
		if errors.Is(err, store.ErrExists) {
			continue
		}
		if err != nil {
			return store.Meta{}, l.unavailable("create room", err)
		}
		l.cfg.Logger.Info("room created", "code", m.Code, "game", m.Game, "seats", o.Seats, "public", o.Public, "practice", o.HasSeed)
		l.roomsChanged()
		return m, nil
	}
	return store.Meta{}, room.Refuse("no free room code found: try again", "lobby.noFreeCode")
}

// times checks a new room's grace period and clock and settles their
// defaults, which the room then stores.
func (o CreateOptions) times(g Game) (grace, clock time.Duration, err error) {
	grace = o.Grace
	switch {
	case grace == 0:
		grace = DefaultGrace
	case grace < MinTurnTime || grace > MaxTurnTime:
		return 0, 0, room.Refuse(fmt.Sprintf("a grace period is %s to %s, not %s", ShortDuration(MinTurnTime), ShortDuration(MaxTurnTime), ShortDuration(o.Grace)),
			"lobby.graceRange", engine.Str("Min", ShortDuration(MinTurnTime)), engine.Str("Max", ShortDuration(MaxTurnTime)), engine.Str("Got", ShortDuration(o.Grace)))
	}
	switch {
	case o.Clock == ClockOff:
	case o.Clock == 0:
		if o.Public && o.Seats >= 2 && g.DefaultBot() != "" {
			clock = DefaultPublicClock
		}
	case o.Clock < MinTurnTime || o.Clock > MaxTurnTime:
		return 0, 0, room.Refuse(fmt.Sprintf("a clock is %s to %s a turn, or off; not %s", ShortDuration(MinTurnTime), ShortDuration(MaxTurnTime), ShortDuration(o.Clock)),
			"lobby.clockRange", engine.Str("Min", ShortDuration(MinTurnTime)), engine.Str("Max", ShortDuration(MaxTurnTime)), engine.Str("Got", ShortDuration(o.Clock)))
	case g.DefaultBot() == "":
		return 0, 0, room.Refuse(fmt.Sprintf("%s has no bots here to play a turn whose time ran out: no clock", g.Rules.Title()),
			"lobby.clockNoBots", engine.Str("Game", g.Rules.Title()))
	default:
		clock = o.Clock
	}
	return grace, clock, nil
}
