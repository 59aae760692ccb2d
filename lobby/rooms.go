package lobby

import (
	"time"

	"github.com/smokestack/smokestack/lobby/room"
)

// The rooms' own types and words, named here as the lobby's callers have
// always named them: a room lives in package room, which the lobby wires.
type (
	Player      = room.Player
	Game        = room.Game
	Conn        = room.Conn
	Update      = room.Update
	LogCode     = room.LogCode
	LogEntry    = room.LogEntry
	RoomInfo    = room.RoomInfo
	SeatInfo    = room.SeatInfo
	RematchInfo = room.RematchInfo
	VoteResult  = room.VoteResult
	LimitError  = room.LimitError
	Observer    = room.Observer
)

// ErrUnavailable is what a player is told when the store cannot be
// reached or fails (room.ErrUnavailable).
var ErrUnavailable = room.ErrUnavailable

// The rooms' defaults and bounds (package room).
const (
	DefaultPublicClock     = room.DefaultPublicClock
	ClockOff               = room.ClockOff
	DefaultGrace           = room.DefaultGrace
	MinTurnTime            = room.MinTurnTime
	MaxTurnTime            = room.MaxTurnTime
	DefaultReconnectWindow = room.DefaultReconnectWindow
	CodeLength             = room.CodeLength
	SecretLength           = room.SecretLength
	NoticeReconnecting     = room.NoticeReconnecting
	NoticeBotFailed        = room.NoticeBotFailed
)

// NormalizeCode is room.NormalizeCode: a typed code upper-cased, without
// spaces and dashes.
func NormalizeCode(code string) string { return room.NormalizeCode(code) }

// SplitSeatWord is room.SplitSeatWord: an invite and the seat word typed
// after it, if any.
func SplitSeatWord(typed string) (invite, word string) { return room.SplitSeatWord(typed) }

// TurnBegan is room.TurnBegan: whether a change of the game's round and
// acting seats begins new turns for the seats acting now.
func TurnBegan(beforeRound int, before []int, round int, acting []int) bool {
	return room.TurnBegan(beforeRound, before, round, acting)
}

// ShortDuration is room.ShortDuration: d as `new` takes it (2m, 90s).
func ShortDuration(d time.Duration) string { return room.ShortDuration(d) }

// ClockText is room.ClockText: a countdown as a clock shows it (1:42).
func ClockText(d time.Duration) string { return room.ClockText(d) }

// Frame is one step of a replay (room.Frame).
type Frame = room.Frame
