package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// Game is one game's screens. The game and replay screens know no game:
// they decode every view the room sends through the room's Game and ask
// the Board it returns what to draw. Each game's package under session/
// implements it, and the server picks one by lobby.RoomInfo.Game.
type Game interface {
	// Decode reads a view as the room sent it, a seat's or a spectator's.
	Decode(view json.RawMessage) (Board, error)
	// Rules are a few short pages that teach the game to a first-time
	// player, as the rules screen shows them.
	Rules() []RulesPage
}

// Screens is a Game made from the game's own view type V: a game's
// screens package gives the Board a decoded view draws as, and its rules.
type Screens[V any] struct {
	// Board is the board a decoded view draws as.
	Board func(v *V) Board
	// Pages are the rules, as Game.Rules returns them.
	Pages func() []RulesPage
}

// Decode implements Game.
func (s Screens[V]) Decode(data json.RawMessage) (Board, error) {
	v, err := DecodeView[V](data)
	if err != nil {
		return nil, err
	}
	return s.Board(v), nil
}

// Rules implements Game.
func (s Screens[V]) Rules() []RulesPage { return s.Pages() }

// DecodeView reads a view as the room sent it into the game's own view
// type, for Game.Decode: no view is a game not started yet, and one that
// does not decode cannot be shown.
func DecodeView[V any](data json.RawMessage) (*V, error) {
	if len(data) == 0 {
		return nil, errors.New("the game has not started")
	}
	var v V
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("this game cannot be shown: %w", err)
	}
	return &v, nil
}

// RulesPage is one page of a game's rules.
type RulesPage struct {
	Title string
	// Text is the page in short paragraphs separated by blank lines; the
	// screen wraps it to its width.
	Text string
}

// Board is one decoded view of a game: what the generic screens draw. It
// holds only what the view holds, so it can show nothing the seat may not
// see, and every move it offers comes from the view's legal moves, so the
// engine stays the only judge of what may be played.
type Board interface {
	// Over reports whether the game has ended.
	Over() bool
	// Header says where the game stands, for the screen's top line:
	// "round 3 of 9 · market phase · your turn".
	Header(t Theme, s Seats) string
	// Banner is news about the game for the second line ("the end is
	// near: …"), or "".
	Banner(t Theme, s Seats) string
	// Draw draws the board in f.Width×f.Height: the seat's own board with
	// the menu where f.Menu is set, the public board otherwise.
	Draw(f Frame) string
	// Scores draws the end of the game.
	Scores(f Frame) string
	// Menu groups the seat's legal moves, in the order the menu offers
	// them; none for a spectator or a seat that may not act.
	Menu(s Seats) []MoveGroup
	// Idle says why the seat has nothing to play now: "waiting for bob to
	// choose".
	Idle(s Seats) string
	// Cards lists every card the view shows, in board order, for the card
	// reference.
	Cards(s Seats) []CardRef
	// CardText is a card's full text in lines no wider than w.
	CardText(t Theme, c CardRef, w int) string
}

// Frame is what a Board draws into: its size, who is looking, and the
// generic widgets it places where its layout has room.
type Frame struct {
	Theme  Theme
	Seats  Seats
	Width  int
	Height int
	// Menu draws the move menu in w×h; nil on a board without moves
	// (a spectator, a replay).
	Menu func(w, h int) string
	// Log draws the newest entries of the game log in w×h.
	Log func(w, h int) string
	// Focus is the card the menu is on, for a preview; nil when none.
	Focus *CardRef
	// Ended says why the game stopped early ("ended by the host"), for
	// the scores.
	Ended string
}

// MoveGroup is the menu's moves about one thing: a card, an action.
type MoveGroup struct {
	// Key identifies the group across updates, so the menu keeps its place.
	Key   string
	Title string
	// Card is the card the group is about, for i and the preview; nil
	// when none.
	Card  *CardRef
	Moves []MenuMove
}

// MenuMove is one legal move with its menu label and the JSON the room
// takes.
type MenuMove struct {
	Label string
	Move  json.RawMessage
	// Confirm marks a move a stray enter must not play: one that ends the
	// seat's part of a phase or spends what cannot be had back. It plays on
	// a second enter.
	Confirm bool
}

// CardRef points at a printed card the view shows, and where it lies.
type CardRef struct {
	// Key identifies the card for its game (its name); equal keys are the
	// same printed card.
	Key   string
	Name  string
	Where string
}

// Seats names the people at the table for a board, and who is looking.
type Seats struct {
	Names []string
	// Bots holds, by seat, the name of the bot playing it, or "".
	Bots []string
	// Viewer is the viewer's seat, or engine.Spectator.
	Viewer int
}

// seatGlyphs mark each seat wherever it is named, with its colour: the
// glyph alone tells seats apart in the mono theme and for every eye.
var seatGlyphs = []string{"♠", "♥", "♦", "♣", "✦", "♤", "♡", "♢"}

// Glyph is the seat's mark.
func (s Seats) Glyph(seat int) string {
	if seat < 0 {
		return "·"
	}
	return seatGlyphs[seat%len(seatGlyphs)]
}

// Label is the seat's glyph and name in its colour: "♥ bob".
func (s Seats) Label(t Theme, seat int) string {
	return t.SeatStyle(seat).Render(s.Glyph(seat) + " " + s.Name(seat))
}

// Speaker colours the name a log line starts with, as the room words it
// ("bob took…", "You took…"), so who did what reads at a glance.
func (s Seats) Speaker(t Theme, line string) string {
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

// Name is a seat's display name. A seat a bot plays says so, wherever it
// is named: "alice (bot)" for a player's seat handed to a bot (a bot in a
// seat nobody took is named for it already: "greedy bot 3").
func (s Seats) Name(seat int) string {
	name := fmt.Sprintf("seat %d", seat+1)
	if seat >= 0 && seat < len(s.Names) && s.Names[seat] != "" {
		name = s.Names[seat]
	}
	if s.Bot(seat) && !strings.Contains(name, "bot") {
		name += " (bot)"
	}
	return name
}

// Whose names a seat's belongings: "Your" for the viewer, "bob's".
func (s Seats) Whose(seat int) string {
	if s.Me(seat) {
		return "Your"
	}
	return s.Name(seat) + "'s"
}

// Me reports whether seat is the viewer's.
func (s Seats) Me(seat int) bool {
	return seat >= 0 && seat == s.Viewer && s.Viewer != engine.Spectator
}
