package room

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/players"
	"github.com/smokestack/smokestack/lobby/store"
)

// Conn is one session's place in a room: a seat, or engine.Spectator.
type Conn struct {
	room    *Room
	player  Player
	seat    int
	updates chan Update
	// invited marks a spectator who may be shown a private room's invite
	// (invite.go).
	invited bool
	// notify is told of every update pushed (OnUpdate); the room's lock
	// guards it.
	notify func()
	// valueOnly marks a connection whose updates need no View JSON
	// (SkipJSON); the room's lock guards it.
	valueOnly bool
}

// Update is everything a session shows of its room at one moment. Each
// update is complete, so a session that skips some loses nothing.
type Update struct {
	Room RoomInfo `json:"room"`
	Seat int      `json:"seat"`
	// View is the game as this seat may see it, as JSON; nil until the
	// game starts, and on a connection that reads Value alone (SkipJSON).
	View json.RawMessage `json:"view,omitempty"`
	// Value is View as the game's own value (engine.Ruleset.ViewValue),
	// for screens in this process. It is shared by every update of the
	// seat, spectators' by all spectators: read it, never change it.
	Value any `json:"-"`
	// Log is the recent game log worded for this seat in English, oldest
	// first: Events as WordLog words them, for the play protocol. A room
	// leaves it empty; screens word Events in their viewer's language.
	Log []string `json:"log,omitempty"`
	// LogByBot lists the indices in Log of the lines of moves a bot
	// played for a seat's person (their clock ran out, or their seat went
	// to a bot while they were away); those lines say so too.
	LogByBot []int `json:"logByBot,omitempty"`
	// LogCodes are Log's lines as stable codes, in Log's order, for a
	// program to word in a language of its own: who did it and the
	// message ID and arguments of what they did, as this seat reads it.
	LogCodes []LogCode `json:"logCodes,omitempty"`
	// Events are the same log as the game's events, for a screen to word
	// in its viewer's language: shared by every update, never changed.
	Events []*LogEntry `json:"-"`
	// Notice reports trouble reaching the store ("reconnecting…").
	Notice  string `json:"notice,omitempty"`
	Version int    `json:"version"` // moves played
	// Invite is a private room's invite (Meta.Invite), for its seats and
	// its host to share, and for a spectator who came in with it to come
	// back with; never another spectator's.
	Invite string `json:"invite,omitempty"`
	// SeatWord is a guest's seat word (seatword.go), for their own
	// connections only: with it they take their seat back.
	SeatWord string `json:"seatWord,omitempty"`
	// Chat is the room's newest chat, both channels, oldest first. The
	// play protocol sends it as lines of its own, not in the update.
	Chat []store.ChatLine `json:"-"`
	// Stored is when the newest move this connection has not been shown
	// yet was stored, by this process's clock, on the updates of the
	// other seats and the spectators; zero on the mover's own, and when
	// no move is new. A screen times from it to the frame that shows the
	// move (the server's smokestack_move_to_others_frame_seconds).
	Stored time.Time `json:"-"`
}

// WordLog fills Log and LogByBot from Events, worded in English for the
// update's seat, naming the seats as the room does.
func (u *Update) WordLog() {
	names := make([]string, len(u.Room.Seats))
	for i, s := range u.Room.Seats {
		names[i] = s.Name
	}
	u.Log, u.LogByBot = wordLog(u.Events, u.Seat, names)
	u.LogCodes = make([]LogCode, len(u.Events))
	for i, e := range u.Events {
		u.LogCodes[i] = LogCode{Seat: e.Seat, ByBot: e.ByBot, Words: e.WordsFor(u.Seat)}
	}
}

// LogCode is one line of the log as a code: the seat whose move it was
// (-1 for the game's own news), whether a bot played it for them, and
// its message (an ID of the game's catalogue, with its arguments).
type LogCode struct {
	Seat  int  `json:"seat"`
	ByBot bool `json:"byBot,omitempty"`
	engine.Words
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
	Result *engine.Result `json:"result,omitempty"`
	Round  int            `json:"round,omitempty"`
	Acting []int          `json:"acting,omitempty"`
	// Ratings are the seats' rating changes, once the finished game is
	// rated; Solo the player's record against the game's own opponent,
	// once a solo game is recorded (records.go).
	Ratings []players.SeatRating `json:"ratings,omitempty"`
	Solo    *store.SoloRecord    `json:"solo,omitempty"`
	// Recording is set while a finished game that counts in its
	// players' records is being recorded: an update with Ratings or
	// Solo follows.
	Recording  bool `json:"recording,omitempty"`
	Spectators int  `json:"spectators"`
	// Seed is the game's seed once it is no secret: when the game is
	// over, or from the start in a practice room, whose creator chose it
	// (Meta.Practice). Nil until then: whoever knew it would foresee
	// every card and roll.
	Seed     *uint64 `json:"seed,omitempty"`
	Practice bool    `json:"practice,omitempty"`
	// Hinted says a player asked for a hint in this game (hint.go).
	Hinted  bool            `json:"hinted,omitempty"`
	Options json.RawMessage `json:"options,omitempty"`
	Created time.Time       `json:"created"`
	Updated time.Time       `json:"updated"`
	// GraceSeconds is how long a player may be away before the table may
	// hand their seat to a bot; ClockSeconds each seat's time for a turn,
	// 0 for none (votes.go, clock.go).
	GraceSeconds int `json:"graceSeconds"`
	ClockSeconds int `json:"clockSeconds,omitempty"`
	// HostSeat is the seat that has the host's powers now: the host's
	// own, or while the host is away (HostAway) the player's standing
	// in; -1 when no seat has them.
	HostSeat int  `json:"hostSeat"`
	HostAway bool `json:"hostAway,omitempty"`
	host     string
	standIn  string   // the key standing in for an away host, never shown
	players  []string // key fingerprints by seat, never shown
	// Rematch is the offer of a new game at the same table, once made.
	Rematch *RematchInfo `json:"rematch,omitempty"`
}

// SeatInfo is a seat as anyone may see it.
type SeatInfo struct {
	Name string `json:"name,omitempty"`
	Bot  string `json:"bot,omitempty"`
	// BotSeat is true for a seat a bot took itself, no player's: its Name
	// is the lobby's English ("greedy bot 3"), which screens word from
	// Bot and the seat's number in the reader's language.
	BotSeat bool `json:"botSeat,omitempty"`
	Free    bool `json:"free"`
	// Connected is true while a bot plays the seat or a session holds it,
	// through any server instance.
	Connected bool `json:"connected"`
	// AwaySince is when the seat's player left, while they are away: the
	// same on every instance. A player not back since the server restarted
	// is away since the restart.
	AwaySince time.Time `json:"awaySince,omitzero"`
	// While the game is under way and the player is away: from VotesFrom
	// the seated players may vote to hand the seat to a bot; Votes lists
	// the seats of those at the table who have, of VotesNeeded; at BotAt
	// the seat goes to a bot anyway, while someone is at the table.
	VotesFrom   time.Time `json:"votesFrom,omitzero"`
	Votes       []int     `json:"votes,omitempty"`
	VotesNeeded int       `json:"votesNeeded,omitempty"`
	BotAt       time.Time `json:"botAt,omitzero"`
	// Deadline is when the seat's time for its turn runs out, while it
	// acts in a room with a clock; OutOfTime says it has, with someone at
	// the table waiting, and the bot plays the rest of the turn.
	Deadline  time.Time `json:"deadline,omitzero"`
	OutOfTime bool      `json:"outOfTime,omitempty"`
}

// IsHost reports whether player has the host's powers: created the room,
// or stands in for its host while the host is away.
func (i RoomInfo) IsHost(player string) bool {
	return player != "" && (i.host == player || i.standIn == player)
}

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

// InfoOf describes the room m, with its sessions conns and its game's
// status st, as its sessions see it.
func InfoOf(m store.Meta, conns map[*Conn]struct{}, st engine.Status) RoomInfo {
	info := RoomInfo{Code: m.Code, Game: m.Game, Public: m.Public, Started: m.Started, Over: m.Over,
		Ended: m.Ended, Result: m.Result, Round: st.Round, Acting: st.Acting, Practice: m.Practice, Hinted: m.Hinted, Options: m.Options,
		Created: m.Created, Updated: m.Updated, host: m.Host, HostSeat: m.SeatOf(m.Host),
		GraceSeconds: int(GraceOf(m).Seconds()), ClockSeconds: int(m.Clock.Seconds())}
	info.Rematch = rematchInfo(m.Rematch)
	if m.Over || m.Practice {
		seed := m.Seed
		info.Seed = &seed
	}
	for _, s := range m.Seats {
		info.Seats = append(info.Seats, SeatInfo{Name: s.Name, Bot: s.Bot, BotSeat: s.Player == "" && s.Bot != "",
			Free: s.Free(), Connected: s.Bot != ""})
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

// Seat is the connection's seat, or engine.Spectator.
func (c *Conn) Seat() int { return c.seat }

// Code is the room's code.
func (c *Conn) Code() string { return c.room.code }

// Updates delivers the room as this seat sees it, newest last. The first
// update arrives at once.
func (c *Conn) Updates() <-chan Update { return c.updates }

// OnUpdate has f called every time an update is put in Updates, and at
// once if one is waiting already, so a session can take its updates as
// they come instead of keeping a goroutine waiting on Updates. The room
// calls f holding its lock: f must hand the news on and return (start a
// goroutine, say) without calling back into the room.
func (c *Conn) OnUpdate(f func()) {
	h := c.room.lock()
	c.notify = f
	pending := len(c.updates) > 0
	h.unlock()
	if pending && f != nil {
		f()
	}
}

// SkipJSON tells the room that c reads each update's Value, not its
// View: the room makes a seat's view as JSON only for a connection that
// reads it, so a table of screens makes none.
func (c *Conn) SkipJSON() {
	defer c.room.lock().unlock()
	c.valueOnly = true
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
		c.room.env.Observer.MoveShown(time.Since(start))
	}
	return err
}

// Close leaves the room; the seat stays bound to the player's key.
func (c *Conn) Close() { c.room.disconnect(c) }

// push replaces any unread update of c with u. Only the room, with its
// memory held, pushes, so the drain-then-send cannot race another writer.
func (r held) push(c *Conn, u Update) {
	select {
	case c.updates <- u:
	default:
		select {
		case old := <-c.updates:
			if u.Stored.IsZero() {
				u.Stored = old.Stored // the move it showed is still to be shown
			}
		default:
		}
		c.updates <- u
	}
	if c.notify != nil {
		c.notify()
	}
}
