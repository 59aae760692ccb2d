package store

import (
	"context"
	"encoding/json"
	"time"

	"github.com/smokestack/smokestack/engine"
)

// Rooms keeps rooms durably: metadata plus the game as seed and ordered
// move log, from which any state can be rebuilt. Moves are appended with a
// compare-and-set on the log length, so two writers (two sessions, two
// server instances) can never both append move n: one gets ErrConflict,
// catches up and tries again.
type Rooms interface {
	// Create stores a new room; ErrExists if the code is taken.
	Create(ctx context.Context, m Meta) error
	// Load returns a room's metadata, with Moves set to the length of its
	// move log, and the moves from index from on (none when from is at or
	// past the end): 0 loads the whole game, a room's own move count only
	// what others stored since.
	Load(ctx context.Context, code string, from int) (Meta, []Record, error)
	// Append stores r as move number at; ErrConflict if the log is not
	// exactly at moves long. In the same transaction it sets the room's
	// Updated time to r.At, its Round and Acting seats to st's (what room
	// lists show without replaying the game) and, when the move ended the
	// game (st.Result is not nil), marks the game over with its result.
	Append(ctx context.Context, code string, at int, r Record, st engine.Status) error
	// SaveMeta replaces the metadata if its stored Version is m.Version-1;
	// ErrConflict otherwise.
	SaveMeta(ctx context.Context, m Meta) error
	// List returns every room's metadata, reading every room: for an
	// operator's look at them all (admin rooms), never for the lobby's
	// lists, which read pages of Lists.
	List(ctx context.Context) ([]Meta, error)
	// Delete removes a room and its log.
	Delete(ctx context.Context, code string) error
}

// Meta is what a room is, apart from its moves.
type Meta struct {
	Code   string `json:"code"`
	Game   string `json:"game"`
	Public bool   `json:"public"`
	// Secret is a private room's half of its invite (see Invite): only
	// those who know it get in, besides the room's seats and host.
	Secret  string          `json:"secret,omitempty"`
	Host    string          `json:"host"` // player ID of the creator
	Seats   []Seat          `json:"seats"`
	Options json.RawMessage `json:"options,omitempty"`
	// Seed decides the deck and every roll, so whoever knows it foresees
	// the game: it is the server's secret until the game is over, unless
	// Practice.
	Seed uint64 `json:"seed"`
	// Practice marks a room whose seed its creator chose: anyone told
	// the seed can foresee its game, so the room shows it and the game
	// counts for no records or ratings. Rooms stored before the mark
	// existed read as not practice.
	Practice bool `json:"practice,omitempty"`
	// Hinted marks a game in which a player asked for a hint
	// (lobby/hint.go): its replay and its players' history say so.
	Hinted  bool `json:"hinted,omitempty"`
	Started bool `json:"started"`
	Over    bool `json:"over"`
	// Result is how the game ended, when it reached its end.
	Result *engine.Result `json:"result,omitempty"`
	// Round and Acting are the game's round and the seats that may move,
	// as of the last stored move (or the start), so room lists show them
	// for rooms no instance has loaded.
	Round  int   `json:"round,omitempty"`
	Acting []int `json:"acting,omitempty"`
	// Ended says why a game stopped before its natural end ("ended by the host").
	Ended   string    `json:"ended,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Version counts metadata changes, for SaveMeta's compare-and-set.
	Version int `json:"version"`
	// StartedAt is when the last seat was taken and the game began: the
	// start of the first turn's clock (lobby/clock.go).
	StartedAt time.Time `json:"startedAt,omitzero"`
	// Grace is how long a seat's player may be away before the others may
	// hand the seat to a bot (lobby/votes.go); 0 means the lobby's DefaultGrace.
	Grace time.Duration `json:"grace,omitempty"`
	// Clock is each seat's time for a turn (lobby/clock.go); 0 means none.
	Clock time.Duration `json:"clock,omitempty"`
	// Votes are the seated players' votes to hand away seats to a bot.
	Votes []Vote `json:"votes,omitempty"`
	// HostAddr is where the room's creator connected from (the lobby's
	// Player.Addr), for the room quotas, which count by address as well
	// as by host: a guest has a new ID on every connection, and keys
	// are made freely. Empty when the server does not count by address.
	HostAddr string `json:"hostAddr,omitempty"`
	// Moves is the length of the move log when Load read it; it is not
	// stored with the metadata.
	Moves int `json:"-"`
	// Rematch is the offer of a new game at the same table, once the game
	// is over (lobby/rematch.go).
	Rematch *Rematch `json:"rematch,omitempty"`
}

// Seat is one place at the table: a person bound by key, or a bot.
type Seat struct {
	Player string `json:"player,omitempty"` // key fingerprint, empty while free
	Name   string `json:"name,omitempty"`
	Bot    string `json:"bot,omitempty"` // bot name when a bot plays the seat
	// Since is when a person last took the seat back from a bot: their
	// turn's clock starts no earlier (lobby/clock.go).
	Since time.Time `json:"since,omitzero"`
	// Word and From let a guest, whose identity lasts one connection,
	// take the seat back (lobby/seatword.go): the seat word they were shown and
	// a digest of the address they sat down from.
	Word string `json:"word,omitempty"`
	From string `json:"from,omitempty"`
}

// Status is the game's standing as the metadata records it.
func (m Meta) Status() engine.Status {
	return engine.Status{Round: m.Round, Acting: m.Acting, Over: m.Over, Result: m.Result}
}

// SetStatus records st in the metadata, as Append does with each move.
func (m *Meta) SetStatus(st engine.Status) {
	m.Round, m.Acting = st.Round, st.Acting
	if st.Result != nil {
		m.Over, m.Result = true, st.Result
	}
}

// Free reports whether nobody holds the seat.
func (s Seat) Free() bool { return s.Player == "" && s.Bot == "" }

// Record is one accepted move.
type Record struct {
	Seat int             `json:"seat"`
	Move json.RawMessage `json:"move"`
	At   time.Time       `json:"at"`
	// Bot names the bot that played the move for the seat's person: their
	// clock ran out, or their seat was handed to a bot while they were
	// away. Empty for a person's own move and a bot's in its own seat, and
	// in records stored before the mark, which read as before.
	Bot string `json:"bot,omitempty"`
}

// SeatOf returns the seat bound to player, or -1.
func (m Meta) SeatOf(player string) int {
	for i, s := range m.Seats {
		if player != "" && s.Player == player {
			return i
		}
	}
	return -1
}

// Full reports whether every seat is taken.
func (m Meta) Full() bool {
	for _, s := range m.Seats {
		if s.Free() {
			return false
		}
	}
	return true
}

// Invite is what a player types to join the room: the code of a public
// room; the code, a dash and the secret of a private one
// ("K7PXMA-ABCDEFGHJKMNP").
func (m Meta) Invite() string {
	if m.Secret == "" {
		return m.Code
	}
	return m.Code + "-" + m.Secret
}

// Vote is a seated player's vote to hand an away seat to a bot.
type Vote struct {
	Seat int `json:"seat"` // the away seat
	By   int `json:"by"`   // the voter's seat
	// Away is when the seat's player had left, as the voter saw it: a
	// vote counts only for that absence, not once the player has been
	// back and left again.
	Away time.Time `json:"away"`
}

// Rematch is the offer of a new game at a finished game's table: the same
// game, options, seats and host, a new seed. It is stored with the old
// room's metadata, so the acceptances of players on any instance count
// (SaveMeta's compare-and-set orders them). The new room's code, seed and
// secret are drawn with the offer, so whichever acceptance completes it
// creates the same room, once.
type Rematch struct {
	Code   string `json:"code"`
	Seed   uint64 `json:"seed"`
	Secret string `json:"secret,omitempty"` // for a private room
	// Accepted holds the seats that said yes, in order: bots' at once.
	Accepted []int `json:"accepted"`
	// Started is set once every seat accepted and the room exists.
	Started bool `json:"started,omitempty"`
}
