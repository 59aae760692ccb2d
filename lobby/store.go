package lobby

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"time"

	"github.com/smokestack/smokestack/engine"
)

// Store keeps rooms durably: metadata plus the game as seed and ordered move
// log, from which any state can be rebuilt. Moves are appended with a
// compare-and-set on the log length, so two writers (two sessions, two
// server instances) can never both append move n: one gets ErrConflict,
// catches up and tries again.
type Store interface {
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
	// List returns every room's metadata.
	List(ctx context.Context) ([]Meta, error)
	// Delete removes a room and its log.
	Delete(ctx context.Context, code string) error
	Close() error
}

// Store errors.
var (
	ErrNotFound = errors.New("no room with that code")
	ErrExists   = errors.New("room code already taken")
	// ErrConflict is also what a player is told when their change lost
	// every retry to others' changes, so it is worded for them.
	ErrConflict = errors.New("the room changed just then: try again")
)

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
	Started  bool `json:"started"`
	Over     bool `json:"over"`
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
	// start of the first turn's clock (clock.go).
	StartedAt time.Time `json:"startedAt,omitzero"`
	// Grace is how long a seat's player may be away before the others may
	// hand the seat to a bot (table.go); 0 means DefaultGrace.
	Grace time.Duration `json:"grace,omitempty"`
	// Clock is each seat's time for a turn (clock.go); 0 means none.
	Clock time.Duration `json:"clock,omitempty"`
	// Votes are the seated players' votes to hand away seats to a bot.
	Votes []Vote `json:"votes,omitempty"`
	// HostAddr is where a guest who created the room connected from
	// (Player.Addr), for the room quotas: a guest has a new ID on every
	// connection, so guests are counted by address. Empty for a key.
	HostAddr string `json:"hostAddr,omitempty"`
	// Moves is the length of the move log when Load read it; it is not
	// stored with the metadata.
	Moves int `json:"-"`
	// Rematch is the offer of a new game at the same table, once the game
	// is over (rematch.go).
	Rematch *Rematch `json:"rematch,omitempty"`
}

// Seat is one place at the table: a person bound by key, or a bot.
type Seat struct {
	Player string `json:"player,omitempty"` // key fingerprint, empty while free
	Name   string `json:"name,omitempty"`
	Bot    string `json:"bot,omitempty"` // bot name when a bot plays the seat
	// Since is when a person last took the seat back from a bot: their
	// turn's clock starts no earlier (clock.go).
	Since time.Time `json:"since,omitzero"`
	// Word and From let a guest, whose identity lasts one connection,
	// take the seat back (seatword.go): the seat word they were shown and
	// a digest of the address they sat down from.
	Word string `json:"word,omitempty"`
	From string `json:"from,omitempty"`
}

// status is the game's standing as the metadata records it.
func (m Meta) status() engine.Status {
	return engine.Status{Round: m.Round, Acting: m.Acting, Over: m.Over, Result: m.Result}
}

// setStatus records st in the metadata, as Append does with each move.
func (m *Meta) setStatus(st engine.Status) {
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

// codeAlphabet leaves out look-alikes (0/O, 1/I/L) so a code read aloud or
// copied from a screen is typed right.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// CodeLength is the length of room codes: 31^6 is about 887 million, short
// enough to read aloud. A public room is listed anyway; a private one
// needs its secret too.
const CodeLength = 6

// SecretLength is the length of a private room's secret: 31^13 is about
// 2^64, so guessing it is hopeless even at a million guesses a second.
const SecretLength = 13

// newCode returns a random room code.
func newCode() string { return randomLetters(CodeLength) }

// newSecret returns a random secret for a private room's invite.
func newSecret() string { return randomLetters(SecretLength) }

// randomLetters returns n letters of codeAlphabet, each equally likely.
func randomLetters(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+1) // about one byte in 32 is drawn again
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		for _, b := range buf {
			if c, ok := letter(b); ok && len(out) < n {
				out = append(out, c)
			}
		}
	}
	return string(out)
}

// letter maps a random byte to a letter, or refuses it. 256 is 8×31 + 8:
// taking every byte modulo 31 would make the first 8 letters likelier than
// the rest (9 bytes each instead of 8), so the last 8 bytes are refused and
// drawn again.
func letter(b byte) (byte, bool) {
	const n = len(codeAlphabet)
	if int(b) >= 256/n*n {
		return 0, false
	}
	return codeAlphabet[int(b)%n], true
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

// NormalizeCode upper-cases a typed code and drops spaces and dashes.
func NormalizeCode(code string) string {
	out := make([]byte, 0, len(code))
	for _, r := range code {
		switch {
		case r >= 'a' && r <= 'z':
			out = append(out, byte(r-'a'+'A'))
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			out = append(out, byte(r))
		}
	}
	return string(out)
}

// newSeed draws the seed of a room created without a chosen one:
// Config.Seeds, or 64 bits from crypto/rand, so nobody can guess it.
func (l *Lobby) newSeed() uint64 {
	if l.cfg.Seeds != nil {
		return l.cfg.Seeds()
	}
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand.Read's documentation)
	return binary.LittleEndian.Uint64(b[:])
}

// counts reports whether m's game reached its natural end with a result
// for every seat in a room whose seed nobody chose, so it may count in
// its players' records.
func (m Meta) counts() bool {
	return m.Over && m.Result != nil && m.Ended == "" && len(m.Result.Ranks) == len(m.Seats) && !m.Practice
}
