package kit

import (
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/internal/lang"
)

// Seats names the people at the table for a board, and who is looking.
type Seats struct {
	Names []string
	// Bots holds, by seat, the name of the bot playing it, or "".
	Bots []string
	// Viewer is the viewer's seat, or engine.Spectator.
	Viewer int
	// L is the viewer's language, for what a board words without a
	// theme at hand (its menu, its idle line, its card list); nil is
	// English.
	L *lang.Printer
	// Plain names seats by name alone, without their glyphs: for a
	// reader whose screen reader would read a suit for every name (the
	// line mode, session/line).
	Plain bool
}

// seatGlyphs mark each seat wherever it is named, with its colour: the
// glyph alone tells seats apart in the mono theme and for every eye.
var seatGlyphs = []string{"♠", "♥", "♦", "♣", "✦", "♤", "♡", "♢"}

// Glyph is the seat's mark.
func (s Seats) Glyph(seat int) string {
	if s.Plain {
		return ""
	}
	if seat < 0 {
		return "·"
	}
	return seatGlyphs[seat%len(seatGlyphs)]
}

// Label is the seat's glyph and name in its colour: "♥ bob".
func (s Seats) Label(t Theme, seat int) string {
	return t.SeatStyle(seat).Render(s.Marked(seat, s.Name(seat)))
}

// Marked is what names a seat with its glyph before it: "♥ bob", or
// "bob" for a Plain reader.
func (s Seats) Marked(seat int, what string) string {
	if g := s.Glyph(seat); g != "" {
		return g + " " + what
	}
	return what
}

// botPlayedFor starts the log line of a move a bot played for a seat's
// person, as the room words it: "the bot played for carol: built…".
const botPlayedFor = "the bot played for "

// Speaker colours the name a log line starts with, as the room words it
// ("bob took…", "You took…", "the bot played for bob: took…"), so who
// did what reads at a glance.
func (s Seats) Speaker(t Theme, line string) string {
	if rest, ok := strings.CutPrefix(line, botPlayedFor); ok {
		for i, n := range s.Names {
			if who := n + ":"; n != "" && strings.HasPrefix(rest, who) || s.Me(i) && strings.HasPrefix(rest, "you:") {
				if s.Me(i) {
					who = "you:"
				}
				head := botPlayedFor + who
				return t.SeatStyle(i).Render(s.Glyph(i)+" "+head) + line[len(head):]
			}
		}
		return line
	}
	best, seat := "", -1
	for i, n := range s.Names {
		if n != "" && len(n) > len(best) && strings.HasPrefix(line, n+" ") {
			best, seat = n, i
		}
	}
	if s.Viewer >= 0 && strings.HasPrefix(line, "You ") {
		best, seat = "You", s.Viewer
	}
	if seat < 0 {
		return line
	}
	shown := best
	if best != "You" {
		shown = s.Name(seat) // with its bot mark
	}
	return t.SeatStyle(seat).Render(s.Glyph(seat)+" "+shown) + line[len(best):]
}

// Bot reports whether a bot plays the seat.
func (s Seats) Bot(seat int) bool { return seat >= 0 && seat < len(s.Bots) && s.Bots[seat] != "" }

// Name is a seat's display name in the viewer's language. A seat a bot
// plays says so, wherever it is named: "greedy bot 3" for a bot's own
// seat (one with no name), "alice (bot)" for a player's seat handed to a
// bot; a seat with neither is named by its number.
func (s Seats) Name(seat int) string {
	name := ""
	if seat >= 0 && seat < len(s.Names) {
		name = s.Names[seat]
	}
	switch {
	case name == "" && s.Bot(seat):
		return s.L.T("session.seat.bot", "Bot", s.Bots[seat], "Seat", seat+1)
	case name == "":
		return s.L.T("session.seat.number", "Seat", seat+1)
	case s.Bot(seat):
		return s.L.T("session.seat.handed", "Name", name)
	}
	return name
}

// Me reports whether seat is the viewer's.
func (s Seats) Me(seat int) bool {
	return seat >= 0 && seat == s.Viewer && s.Viewer != engine.Spectator
}

// Short is a seat's name in at most n runes, told apart from every other
// seat's (issue 36, point 10): names that share a beginning ("greedy bot
// 3", "greedy bot 4") are shortened to where they differ, never cut to
// the part they share ("greedy…"). It tries, in order, the whole name;
// its first word, when no other name starts with it ("Carol" for "Carol
// Ann"); its first and last words ("greedy 4"); its beginning cut to keep
// the part from where it differs from the names most like it ("Caro…Ann",
// "alexan…2").
//
// A player's seat handed to a bot keeps its mark ("alice (bot)") only
// where the whole fits: shortened, it is the player's name that is told
// apart, not the mark cut ("p…df1 (b").
func (s Seats) Short(seat, n int) string {
	if whole := s.Name(seat); len([]rune(whole)) <= n {
		return whole
	}
	c := s.cut(seat, n)
	for o := range s.Names {
		if o != seat && s.cut(o, n) == c {
			// Names that part and meet again ("alexandrina",
			// "alexandra"): their ends.
			r := []rune(s.unmarked(seat))
			if len(r) <= n {
				return c
			}
			return "…" + string(r[len(r)-(n-1):])
		}
	}
	return c
}

// unmarked is Name without the mark of a player's seat handed to a bot:
// the player's own name.
func (s Seats) unmarked(seat int) string {
	if s.Bot(seat) && seat < len(s.Names) && s.Names[seat] != "" {
		return s.Names[seat]
	}
	return s.Name(seat)
}

// cut is Short without its last resort.
func (s Seats) cut(seat, n int) string {
	name := s.unmarked(seat)
	r := []rune(name)
	if len(r) <= n {
		return name
	}
	var others []string
	for o := range s.Names {
		if o != seat {
			others = append(others, s.unmarked(o))
		}
	}
	fits := func(c string) bool { return c != "" && len([]rune(c)) <= n }
	if first, _, ok := strings.Cut(name, " "); ok && fits(first) && !slices.ContainsFunc(others, func(o string) bool {
		return strings.HasPrefix(o, first)
	}) {
		return first
	}
	if c := firstLast(name); fits(c) && !slices.ContainsFunc(others, func(o string) bool {
		return firstLast(o) == c || o == c
	}) {
		return c
	}
	// d is where name parts from the other name most like it: the cut
	// keeps the rune at d and as much after it as fits.
	d := 0
	for _, o := range others {
		or := []rune(o)
		k := 0
		for k < len(r) && k < len(or) && r[k] == or[k] {
			k++
		}
		d = max(d, k)
	}
	if d < n-1 {
		// The distinguishing rune is in the first n-1: prefer a name's
		// last word whole after its start where it is short.
		words := strings.Fields(name)
		if last := []rune(words[len(words)-1]); len(words) > 1 && len(last) <= n/2 && d < n-1-len(last) {
			return string(r[:n-1-len(last)]) + "…" + string(last)
		}
		return string(r[:n-1]) + "…"
	}
	// The tail starts a word where that word fits whole.
	if ws := strings.LastIndex(string(r[:d]), " "); ws >= 0 && len(r)-len([]rune(name[:ws+1])) <= n-2 {
		d = len([]rune(name[:ws+1]))
	}
	tail, end := r[d:], ""
	if len(tail) > n-2 {
		tail, end = tail[:n-3], "…" // cut at its end too, and saying so
	}
	head := max(1, n-1-len(tail)-len([]rune(end)))
	return string(r[:head]) + "…" + string(tail) + end
}

// firstLast is a name's first and last words, or "" for a name of one
// word.
func firstLast(name string) string {
	words := strings.Fields(name)
	if len(words) < 2 {
		return ""
	}
	return words[0] + " " + words[len(words)-1]
}

// Fitted is a Board whose header fits a width: names it lists give way
// to shorter forms and then to a count, rather than being cut mid-name
// ("rando…") or pushing the server's name off the line.
type Fitted interface {
	HeaderIn(t Theme, s Seats, w int) string
}

// NameList lists seats' names for a line of at most w columns once
// with(list) has put it in its words: the names whole if they fit, else
// each shortened (Short), else as many as fit and a count of the rest
// ("you, greedy 2 +3"). first is put before the names, whole ("you").
func NameList(s Seats, first []string, seats []int, w int, with func(list string) string) string {
	list := func(names []string, rest int) string {
		text := strings.Join(append(append(make([]string, 0, len(first)+len(names)), first...), names...), ", ")
		if rest > 0 {
			if text != "" {
				text += " "
			}
			text += "+" + strconv.Itoa(rest) // "+2" alone when no name fits
		}
		return with(text)
	}
	names := make([]string, len(seats))
	for i, seat := range seats {
		names[i] = s.Name(seat)
	}
	if text := list(names, 0); Width(text) <= w {
		return text
	}
	// The short names only where the whole ones do not fit: Short
	// compares each name with every other.
	short := names
	for i, seat := range seats {
		short[i] = s.Short(seat, 8)
	}
	for k := len(seats); k > 0; k-- {
		if text := list(short[:k], len(seats)-k); Width(text) <= w {
			return text
		}
	}
	return list(nil, len(seats))
}
