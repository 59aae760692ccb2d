package main

import (
	"bytes"
	"strings"
)

// Who acts next. A room's players act one at a time (capacity.go), and as
// people play, the one who acts is one who may: they press enter on their
// turn, not every few seconds in case it is. Whoever may act, in any game
// the registry holds, is told by the session on every seat's screen: while
// the seat may act the window title begins "your move" (and the bell rings
// as it comes to act), from the room's acting seats, not from any game's
// board. So the next actor is chosen from those whose title says so, and
// the enters' answers back it up: a player refused (or unanswered) is not
// asked again until the room plays a move or their title changes. Among
// those left, the players after the last to play a move come first, as a
// market's turns pass in seat order. A screen without titles (the session
// started with --no-bell) leaves the answers alone to decide.

// seatView is what a player's own screen last said of their seat.
type seatView struct {
	known  bool   // a window title came
	acting bool   // it says "your move"
	titles uint64 // how many came: a new one may say something new
}

// enterAnswer is what an enter came to on the mover's own screen.
type enterAnswer int8

const (
	answerNone    enterAnswer = iota // nothing said within enterWindow
	answerPlayed                     // a move sent and not refused
	answerRefused                    // nothing to play, or not played
	answerAsked                      // "press enter again": a costly move, still theirs to play
)

// turns chooses a room's actors from what their screens and answers say.
type turns struct {
	last  int // the player who last played a move; -1 before any
	asked int // the player last chosen
	// refused marks the players refused since the room's last move, and
	// at holds each one's title count when refused.
	refused []bool
	at      []uint64
}

func newTurns(players int) *turns {
	return &turns{last: -1, asked: -1, refused: make([]bool, players), at: make([]uint64, players)}
}

// next is the player to act now, given what each one's screen says: the
// first after the last to play a move who is neither refused since nor
// shown waiting by their title. When nobody is left (the game over, the
// titles stale), the refusals are forgotten and the players are asked in
// rotation, as if nothing were known: an action is never skipped, so the
// pace stays the one asked for and the report counts what it played.
func (t *turns) next(seats []seatView) int {
	n := len(seats)
	for i := range n {
		k := (t.last + 1 + i) % n
		s := seats[k]
		if t.refused[k] && t.at[k] == s.titles || s.known && !s.acting {
			continue
		}
		t.asked = k
		return k
	}
	clear(t.refused)
	t.asked = (t.asked + 1) % n
	return t.asked
}

// answered notes what player k's enter came to, and its title count then.
func (t *turns) answered(k int, a enterAnswer, titles uint64) {
	switch a {
	case answerPlayed:
		t.last = k
		clear(t.refused) // the room moved on: anyone may have come to act
	case answerRefused, answerNone:
		// An enter unanswered is most likely the same refusal again,
		// which draws nothing new.
		t.refused[k], t.at[k] = true, titles
	}
	// answerAsked: still theirs to play, asked again in their turn.
}

// actingTitle says a window title is the session's "your move".
func actingTitle(title string) bool { return strings.HasPrefix(title, "your move") }

// oscTitle begins a window title (xterm's OSC 2), ended by BEL or ST.
var oscTitle = []byte("\x1b]2;")

// maxTitle bounds a title kept while its end has not yet come.
const maxTitle = 512

// titleScan follows the window titles in a terminal's output as it
// arrives, in chunks that may cut a title anywhere.
type titleScan struct {
	title  string
	titles uint64
	rest   []byte // the unfinished start of a title at the last chunk's end
}

// feed reads a chunk of output.
func (t *titleScan) feed(p []byte) {
	b := p
	if len(t.rest) > 0 {
		b = append(t.rest, p...)
		t.rest = nil
	}
	for {
		i := bytes.Index(b, oscTitle)
		if i < 0 {
			// The chunk may end on the title's first bytes.
			for k := min(len(oscTitle)-1, len(b)); k > 0; k-- {
				if bytes.HasPrefix(oscTitle, b[len(b)-k:]) {
					t.rest = append([]byte(nil), b[len(b)-k:]...)
					break
				}
			}
			return
		}
		b = b[i+len(oscTitle):]
		j := bytes.IndexAny(b, "\a\x1b")
		if j < 0 {
			if len(b) < maxTitle {
				t.rest = append(append([]byte(nil), oscTitle...), b...)
			}
			return
		}
		t.title = string(b[:j])
		t.titles++
		b = b[j:]
	}
}

// view is what the titles so far say of the seat.
func (t *titleScan) view() seatView {
	return seatView{known: t.titles > 0, acting: actingTitle(t.title), titles: t.titles}
}
