package session

import (
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// The game log in the viewer's language. A room sends its log as events
// (lobby.LogEntry: what a seat's move did, as engine.Words, and whether a
// bot made it for the seat's person), and each screen words them for its
// viewer: their own moves as theirs ("You took…"), what only they may
// read (what they drew), who did what in the seat's colour. An entry
// never changes, so a screen words each once and keeps the line while
// the theme, the seats and the language stay; and what it says is kept
// with the entry (LogEntry.Worded), for the table's other screens that
// read it alike in the same language.

// logWords keeps a screen's worded log lines, and each as the log pane
// last wrapped it, from one update to the next.
type logWords struct {
	styles *kit.Styles
	seats  kit.Seats
	lang   *lang.Printer
	lines  map[*lobby.LogEntry]loggedLine
}

// loggedLine is an entry's line, and the line wrapped to w (w 0: not
// yet); fits says every line of the wrap is exactly w wide, as a wrap
// mostly is: the log pane, fitted to w, copies it unmeasured.
type loggedLine struct {
	text, wrapped string
	w             int
	fits          bool
}

// keptLines bounds the lines a screen keeps: past it they are let go and
// worded again as they are asked for. A room keeps 200 entries, so the
// lines of one drawing, or of the whole log, always fit.
const keptLines = 256

// words returns the lines of events for the viewer of s, oldest first.
func (l *logWords) words(t kit.Theme, s kit.Seats, game string, events []*lobby.LogEntry) []string {
	if len(l.lines)+len(events) > keptLines {
		// Keep the lines of events only, rather than word them anew.
		kept := make(map[*lobby.LogEntry]loggedLine, len(events))
		for _, e := range events {
			if ln, ok := l.lines[e]; ok {
				kept[e] = ln
			}
		}
		l.lines = kept
	}
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = l.line(t, s, game, e).text
	}
	return out
}

// fitted is e's line for the viewer of s wrapped to w, and whether its
// every line is exactly w wide. The screens at a table that read a line
// alike at the same width wrap it once between them (LogEntry.Wrapped).
func (l *logWords) fitted(t kit.Theme, s kit.Seats, game string, e *lobby.LogEntry, w int) (string, bool) {
	ln := l.line(t, s, game, e)
	if ln.w != w {
		ln.wrapped, ln.w = e.Wrapped(ln.text, w, func() string { return kit.Wrap(ln.text, w) }), w
		ln.fits = w > 0
		for line := range strings.SplitSeq(ln.wrapped, "\n") {
			ln.fits = ln.fits && kit.Width(line) == w
		}
		l.lines[e] = ln
	}
	return ln.wrapped, ln.fits
}

// line is e's line for the viewer of s, worded once while the theme, the
// seats and the language stay.
func (l *logWords) line(t kit.Theme, s kit.Seats, game string, e *lobby.LogEntry) loggedLine {
	if l.styles != t.Styles || l.lang != t.L || !l.seats.Equal(s) {
		l.styles, l.lang, l.seats, l.lines = t.Styles, t.L, s, nil
	}
	ln, ok := l.lines[e]
	if ok {
		return ln
	}
	switch {
	case l.lines == nil:
		l.lines = make(map[*lobby.LogEntry]loggedLine)
	case len(l.lines) >= keptLines:
		clear(l.lines) // the map's room kept, rather than grown again
	}
	ln = loggedLine{text: logLine(t, s, game, e)}
	l.lines[e] = ln
	return ln
}

// LogLine words one entry of the game log for the viewer of s, as the
// game screen's log does: for the line mode (session/line), which says
// each as it happens.
func LogLine(t kit.Theme, s kit.Seats, game string, e *lobby.LogEntry) string {
	return logLine(t, s, game, e)
}

// logLine words one entry for the viewer of s: who did it, in their
// seat's colour, then what they did.
func logLine(t kit.Theme, s kit.Seats, game string, e *lobby.LogEntry) string {
	viewer := s.Viewer
	mine := e.Seat >= 0 && e.Seat == viewer
	key := string(t.L.Tag()) + " other"
	if mine {
		key = string(t.L.Tag()) + " mine"
	}
	what := e.Worded(key, func() string {
		w := e.WordsFor(viewer)
		if w.ID == "" {
			return e.For(viewer)
		}
		you := ""
		if mine && !e.ByBot {
			you = "yes" // the reader did it: "Ty bierzesz", not "bierze"
		}
		w.Args = append(slices.Clip(w.Args), engine.Str("You", you))
		return kit.Say(t, game, w)
	})
	if e.Seat < 0 || e.Seat >= len(s.Names) {
		return what
	}
	var who string
	switch {
	case e.ByBot && mine:
		who = t.L.T("log.botforyou")
	case e.ByBot:
		who = t.L.T("log.botfor", "Name", s.Names[e.Seat]) // a player's seat: the bot played for them
	case mine:
		who = t.L.T("log.you")
	default:
		who = s.Name(e.Seat)
	}
	head := t.SeatStyle(e.Seat).Render(s.Marked(e.Seat, who))
	// The line depends on what (key) and head alone: the table's other
	// screens, reading the entry alike, word it once between them.
	return e.Worded("\x00line "+key+"\x00"+head, func() string { return t.L.T("log.line", "Who", head, "What", what) })
}
