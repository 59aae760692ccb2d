package lobby

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/smokestack/smokestack/engine"
)

// Conn is one session's place in a room: a seat, or engine.Spectator.
type Conn struct {
	room    *room
	player  Player
	seat    int
	updates chan Update
	// notify is told of every update pushed (OnUpdate); the room's lock
	// guards it.
	notify func()
	// moveRate paces the session's moves (limits.go).
	rateOnce sync.Once
	moveRate *rate.Limiter
}

// Update is everything a session shows of its room at one moment. Each
// update is complete, so a session that skips some loses nothing.
type Update struct {
	Room RoomInfo `json:"room"`
	Seat int      `json:"seat"`
	// View is the game as this seat may see it; nil until the game starts.
	View json.RawMessage `json:"view,omitempty"`
	// Log is the recent game log worded for this seat, oldest first.
	Log []string `json:"log,omitempty"`
	// Notice reports trouble reaching the store ("reconnecting…").
	Notice  string `json:"notice,omitempty"`
	Version int    `json:"version"` // moves played
	// Invite is a private room's invite (Meta.Invite), for its seats and
	// its host to share; never a spectator's.
	Invite string `json:"invite,omitempty"`
}

// RoomInfo describes a room without anyone's key.
type RoomInfo struct {
	Code    string     `json:"code"`
	Game    string     `json:"game"`
	Public  bool       `json:"public"`
	Seats   []SeatInfo `json:"seats"`
	Started bool       `json:"started"`
	Over    bool       `json:"over"`
	Ended   string     `json:"ended,omitempty"`
	// Result is how the game ended, once it reached its end.
	Result     *engine.Result  `json:"result,omitempty"`
	Round      int             `json:"round,omitempty"`
	Acting     []int           `json:"acting,omitempty"`
	Spectators int             `json:"spectators"`
	Seed       uint64          `json:"seed"`
	Options    json.RawMessage `json:"options,omitempty"`
	Created    time.Time       `json:"created"`
	Updated    time.Time       `json:"updated"`
	host       string
	players    []string // key fingerprints by seat, never shown
}

// SeatInfo is a seat as anyone may see it.
type SeatInfo struct {
	Name string `json:"name,omitempty"`
	Bot  string `json:"bot,omitempty"`
	Free bool   `json:"free"`
	// Connected is true while a bot plays the seat or a session holds it,
	// through any server instance.
	Connected bool `json:"connected"`
	// AwaySince is when the seat's player left, while they are away: the
	// same on every instance. A player not back since the server restarted
	// is away since the restart.
	AwaySince time.Time `json:"awaySince,omitzero"`
}

// IsHost reports whether player created the room.
func (i RoomInfo) IsHost(player string) bool { return player != "" && i.host == player }

// SeatOf returns the seat player holds in the room, or -1.
func (i RoomInfo) SeatOf(player string) int {
	if player == "" {
		return -1
	}
	return slices.Index(i.players, player)
}

// Open reports whether the room still has a free seat.
func (i RoomInfo) Open() bool {
	for _, s := range i.Seats {
		if s.Free {
			return true
		}
	}
	return false
}

func infoOf(m Meta, conns map[*Conn]struct{}, st engine.Status) RoomInfo {
	info := RoomInfo{Code: m.Code, Game: m.Game, Public: m.Public, Started: m.Started, Over: m.Over,
		Ended: m.Ended, Result: m.Result, Round: st.Round, Acting: st.Acting, Seed: m.Seed, Options: m.Options,
		Created: m.Created, Updated: m.Updated, host: m.Host}
	for _, s := range m.Seats {
		info.Seats = append(info.Seats, SeatInfo{Name: s.Name, Bot: s.Bot, Free: s.Free(), Connected: s.Bot != ""})
		info.players = append(info.players, s.Player)
	}
	for c := range conns {
		if c.seat < 0 {
			info.Spectators++
		} else if c.seat < len(info.Seats) {
			info.Seats[c.seat].Connected = true
		}
	}
	return info
}

func (r *room) info() RoomInfo {
	info := infoOf(r.meta, r.conns, r.status)
	for seat := range info.Seats {
		s := &info.Seats[seat]
		if s.Free || s.Bot != "" {
			continue
		}
		s.Connected = s.Connected || r.elsewhere[seat]
		if !s.Connected {
			s.AwaySince = r.awaySince(seat)
		}
	}
	return info
}

// Seat is the connection's seat, or engine.Spectator.
func (c *Conn) Seat() int { return c.seat }

// Code is the room's code.
func (c *Conn) Code() string { return c.room.meta.Code }

// Updates delivers the room as this seat sees it, newest last. The first
// update arrives at once.
func (c *Conn) Updates() <-chan Update { return c.updates }

// OnUpdate has f called every time an update is put in Updates, and at
// once if one is waiting already, so a session can take its updates as
// they come instead of keeping a goroutine waiting on Updates. The room
// calls f holding its lock: f must hand the news on and return (start a
// goroutine, say) without calling back into the room.
func (c *Conn) OnUpdate(f func()) {
	c.room.mu.Lock()
	c.notify = f
	pending := len(c.updates) > 0
	c.room.mu.Unlock()
	if pending && f != nil {
		f()
	}
}

// Move plays move for the connection's seat. The error is the engine's
// reason for refusing it, or says the game service is unavailable.
func (c *Conn) Move(ctx context.Context, move json.RawMessage) error {
	if c.seat == engine.Spectator {
		return errSpectator
	}
	if err := c.allowMove(ctx); err != nil {
		return err
	}
	start := time.Now()
	err := c.room.move(ctx, c.seat, move)
	if err == nil {
		c.room.l.observer().MoveShown(time.Since(start))
	}
	return err
}

// Close leaves the room; the seat stays bound to the player's key.
func (c *Conn) Close() { c.room.disconnect(c) }

// push replaces any unread update with u. Only the room, under its lock,
// calls it, so the drain-then-send cannot race another writer.
func (c *Conn) push(u Update) {
	select {
	case c.updates <- u:
	default:
		select {
		case <-c.updates:
		default:
		}
		c.updates <- u
	}
	if c.notify != nil {
		c.notify()
	}
}
