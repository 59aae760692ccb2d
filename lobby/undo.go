package lobby

import (
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// Taking moves back. A game's undo move takes back the seat's last move
// that still stands and emits an event of kind engine.Undo (see there);
// the room knows nothing else of it. The room's undoLog remembers which
// move made each line of its log and, per seat, the moves that stand, so
// an undo removes the lines of the move it takes back from every seat's
// log: the others see "NAME took back a move" where the move was, and the
// undoer "You took back: what the move did". The stored log keeps both
// moves, and a room rebuilt from it (a restart, another instance, a
// replay) words its log the same way, because it runs the same record.

// logSize is how many recent events a room keeps for its sessions' logs.
const logSize = 200

// logEntry is one event of the room's log and the move that made it.
type logEntry struct {
	engine.Event
	move int // the move's index in the room's log
	// byBot marks the event of a seat's move that a bot played for the
	// seat's person (store.Record.Bot): its line says so.
	byBot bool
}

// undoLog is a room's recent events, and per seat the moves an undo may
// still take back, newest last. The room's lock guards it.
type undoLog struct {
	events   []logEntry
	standing map[int][]int
}

// record adds to the log the events of move, played by seat, by a bot
// for the seat's person when byBot.
func (u *undoLog) record(move, seat int, byBot bool, events []engine.Event) {
	undo := slices.IndexFunc(events, func(e engine.Event) bool { return e.Kind == engine.Undo && e.Seat == seat })
	switch {
	case seat < 0:
	case undo >= 0:
		events = slices.Clone(events)
		events[undo] = u.takeBack(seat, events[undo])
	default:
		if u.standing == nil {
			u.standing = map[int][]int{}
		}
		// An undo reaches back within a phase, never near logSize moves.
		u.standing[seat] = append(u.standing[seat], move)
		if over := len(u.standing[seat]) - logSize; over > 0 {
			u.standing[seat] = slices.Delete(u.standing[seat], 0, over)
		}
	}
	for _, e := range events {
		u.events = append(u.events, logEntry{Event: e, move: move, byBot: byBot && seat >= 0 && e.Seat == seat})
	}
	if over := len(u.events) - logSize; over > 0 {
		u.events = slices.Delete(u.events, 0, over)
	}
}

// takeBack removes seat's last standing move from the log and returns the
// undo event worded for the log: neutral for everyone, and for the seat
// itself what the move it took back had done.
func (u *undoLog) takeBack(seat int, e engine.Event) engine.Event {
	stack := u.standing[seat]
	if len(stack) == 0 {
		return e
	}
	gone := stack[len(stack)-1]
	u.standing[seat] = stack[:len(stack)-1]
	var did []string
	u.events = slices.DeleteFunc(u.events, func(l logEntry) bool {
		if l.move != gone {
			return false
		}
		if text := l.For(seat); text != "" {
			did = append(did, text)
		}
		return true
	})
	if len(did) > 0 {
		e.Private = "took back: " + strings.Join(did, "; ")
	}
	return e
}

// wordedFor words the recent events for seat, naming the players by the
// seats' names, and lists which of the lines a bot played for a seat's
// person: those say so ("the bot played for carol: built Manufactory").
func (u *undoLog) wordedFor(seat int, seats []store.Seat) (lines []string, byBot []int) {
	lines = make([]string, 0, len(u.events))
	for i, e := range u.events {
		text := e.For(seat)
		if e.Seat >= 0 && e.Seat < len(seats) {
			who := seats[e.Seat].Name
			switch {
			case e.byBot && e.Seat == seat:
				who = "the bot played for you:"
			case e.byBot:
				who = "the bot played for " + who + ":"
			case e.Seat == seat:
				who = "You"
			}
			text = who + " " + text
		}
		if e.byBot {
			byBot = append(byBot, i)
		}
		lines = append(lines, text)
	}
	return lines, byBot
}
