package lobby

import (
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// Taking moves back. A game's undo move takes back the seat's last move
// that still stands and emits an event of kind engine.Undo (see there);
// the room knows nothing else of it. The room remembers which move made
// each line of its log and, per seat, the moves that stand, so an undo
// removes the lines of the move it takes back from every seat's log:
// the others see "NAME took back a move" where the move was, and the
// undoer "You took back: what the move did". The stored log keeps both
// moves, and a room rebuilt from it (a restart, another instance, a
// replay) words its log the same way, because it runs the same record.

// logEntry is one event of the room's log and the move that made it.
type logEntry struct {
	engine.Event
	move int // the move's index in the room's log
}

// record adds to the log the events of the move just applied, the room's
// move number r.moves-1, played by seat.
func (r *room) record(seat int, events []engine.Event) {
	move := r.moves - 1
	undo := slices.IndexFunc(events, func(e engine.Event) bool { return e.Kind == engine.Undo && e.Seat == seat })
	switch {
	case seat < 0:
	case undo >= 0:
		events = slices.Clone(events)
		events[undo] = r.takeBack(seat, events[undo])
	default:
		if r.standing == nil {
			r.standing = map[int][]int{}
		}
		// An undo reaches back within a phase, never near logSize moves.
		r.standing[seat] = append(r.standing[seat], move)
		if over := len(r.standing[seat]) - logSize; over > 0 {
			r.standing[seat] = slices.Delete(r.standing[seat], 0, over)
		}
	}
	for _, e := range events {
		r.events = append(r.events, logEntry{Event: e, move: move})
	}
	if over := len(r.events) - logSize; over > 0 {
		r.events = slices.Delete(r.events, 0, over)
	}
}

// takeBack removes seat's last standing move from the log and returns the
// undo event worded for the log: neutral for everyone, and for the seat
// itself what the move it took back had done.
func (r *room) takeBack(seat int, e engine.Event) engine.Event {
	stack := r.standing[seat]
	if len(stack) == 0 {
		return e
	}
	gone := stack[len(stack)-1]
	r.standing[seat] = stack[:len(stack)-1]
	var did []string
	r.events = slices.DeleteFunc(r.events, func(l logEntry) bool {
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
