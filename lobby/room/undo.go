package room

import (
	"math"
	"slices"
	"strings"
	"sync"

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

// LogEntry is one event of a room's log: what a seat's move did (or the
// game, Seat -1), with its Words, so that each session words it for its
// viewer in the viewer's language (Event.For, Event.WordsFor), naming
// who did it. An entry never changes once made: updates share them.
type LogEntry struct {
	engine.Event
	// ByBot marks the event of a seat's move that a bot played for the
	// seat's person (store.Record.Bot): its line says so.
	ByBot bool
	move  int // the move's index in the room's log

	mu     sync.Mutex
	worded []wording // Worded's and Wrapped's texts
}

type wording struct {
	key  string // Worded's key, or the line Wrapped wrapped
	w    int    // the width Wrapped wrapped it to; unwrapped for Worded's
	text string
}

// unwrapped is the width of Worded's texts, a width no line is wrapped to.
const unwrapped = math.MinInt

// maxWordings bounds the texts an entry keeps: a table's screens read it
// in a language or two, at a width or two; past this they are made anew.
const maxWordings = 16

// Worded returns the entry's text under key (a language, and how its
// reader stands to it), made by word the first time it is asked for: the
// screens at a table reading it alike word it once between them.
func (e *LogEntry) Worded(key string, word func() string) string {
	return e.keep(wording{key: key, w: unwrapped}, word)
}

// Wrapped returns line, the entry's line for some reader, wrapped to w by
// wrap the first time it is asked for: the wrap depends on the line and w
// alone, so the screens at a table reading the line alike at the same
// width wrap it once between them. The line is its own key, not copied
// into one: a line the entry keeps (Worded) is not kept twice.
func (e *LogEntry) Wrapped(line string, w int, wrap func() string) string {
	return e.keep(wording{key: line, w: w}, wrap)
}

// keep returns the text kept under k (its text aside), or makes it by word.
func (e *LogEntry) keep(k wording, word func() string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, kept := range e.worded {
		if kept.w == k.w && kept.key == k.key {
			return kept.text
		}
	}
	k.text = word()
	if e.worded == nil {
		// What a seat's move did, its line and its wrap, as its seat and
		// as the others read them: room for a table in one language and
		// at one width, rather than grown to it by doublings.
		e.worded = make([]wording, 0, 6)
	}
	if len(e.worded) < maxWordings {
		e.worded = append(e.worded, k)
	}
	return k.text
}

// undoLog is a room's recent events, and per seat the moves an undo may
// still take back, newest last. The room's lock guards it.
type undoLog struct {
	events   []*LogEntry
	standing map[int][]int
}

// entries are the log's events as they stand, oldest first, in a slice
// of their own for updates to share.
func (u *undoLog) entries() []*LogEntry { return slices.Clone(u.events) }

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
	// A bot is credited with its move's own events, the first run of the
	// seat's: what follows the game's or another seat's event is the
	// game's doing (the work phase's roll that ending a market turn
	// brings), not the bot's.
	own := byBot && seat >= 0
	for _, e := range events {
		own = own && e.Seat == seat
		u.events = append(u.events, &LogEntry{Event: e, move: move, ByBot: own})
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
	var words []engine.Words
	u.events = slices.DeleteFunc(u.events, func(l *LogEntry) bool {
		if l.move != gone {
			return false
		}
		if text := l.For(seat); text != "" {
			did, words = append(did, text), append(words, l.WordsFor(seat))
		}
		return true
	})
	if len(did) > 0 {
		e.Private = "took back: " + strings.Join(did, "; ")
		e.PrivateWords = engine.Words{}
		if !slices.ContainsFunc(words, func(w engine.Words) bool { return w.ID == "" }) {
			e.PrivateWords = engine.Say("log.tookback", engine.StepsArg("Did", words...))
		}
	}
	return e
}

// wordedFor words the recent events for seat, naming the players by the
// seats' names, and lists which of the lines a bot played for a seat's
// person: those say so ("the bot played for carol: built Manufactory").
func (u *undoLog) wordedFor(seat int, seats []store.Seat) (lines []string, byBot []int) {
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = s.Name
	}
	return wordLog(u.events, seat, names)
}

// wordLog words events for seat in English, as wordedFor says.
func wordLog(events []*LogEntry, seat int, names []string) (lines []string, byBot []int) {
	lines = make([]string, 0, len(events))
	for i, e := range events {
		text := e.For(seat)
		if e.Seat >= 0 && e.Seat < len(names) {
			who := names[e.Seat]
			switch {
			case e.ByBot && e.Seat == seat:
				who = "the bot played for you:"
			case e.ByBot:
				who = "the bot played for " + who + ":"
			case e.Seat == seat:
				who = "You"
			}
			text = who + " " + text
		}
		if e.ByBot {
			byBot = append(byBot, i)
		}
		lines = append(lines, text)
	}
	return lines, byBot
}
