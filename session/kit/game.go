// Package kit is what a game's screens are made of: the Game and Board
// contracts the generic screens draw a game through, the Frame a board
// draws into, the theme, the layout helpers (Fit, Columns, WrapItems),
// the score chart and the menu builder. It knows no room, lobby or store,
// so a game's screens (session/GAME) link only this package and their
// engine.
package kit

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/smokestack/smokestack/internal/lang"
)

// Game is one game's screens. The game and replay screens know no game:
// they decode every view the room sends through the room's Game and ask
// the Board it returns what to draw. Each game's package under session/
// implements it, and the server picks one by lobby.RoomInfo.Game.
type Game interface {
	// Decode reads a view as the room sent it, a seat's or a spectator's:
	// the game's own view value (engine.Ruleset.ViewValue), which the
	// Board only reads, or its JSON (a json.RawMessage).
	Decode(view any) (Board, error)
	// Rules are a few short pages that teach the game to a first-time
	// player, as the rules screen shows them, in p's language.
	Rules(p *lang.Printer) []RulesPage
}

// Screens is a Game made from the game's own view type V: a game's
// screens package gives the Board a decoded view draws as, and its rules.
type Screens[V any] struct {
	// Board is the board a decoded view draws as.
	Board func(v *V) Board
	// Pages are the rules in p's language, as Game.Rules returns them.
	Pages func(p *lang.Printer) []RulesPage
}

// Decode implements Game. A *V is drawn as it is, shared with every
// screen of its seat: boards never change their view.
func (s Screens[V]) Decode(view any) (Board, error) {
	switch view := view.(type) {
	case *V:
		if view != nil {
			return s.Board(view), nil
		}
	case json.RawMessage:
		v, err := DecodeView[V](view)
		if err != nil {
			return nil, err
		}
		return s.Board(v), nil
	}
	return nil, fmt.Errorf("this game cannot be shown: a view of %T", view)
}

// Rules implements Game.
func (s Screens[V]) Rules(p *lang.Printer) []RulesPage { return s.Pages(p) }

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
	// Draw draws the board in f.Width×f.Height, exactly (as Fit or
	// Columns leave a block): the seat's own board with the menu where
	// f.Menu is set, the public board otherwise.
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

// Laid is a Board whose Draw writes a Grid: it gives the grid itself, for
// the screen to write into its frame in place of a string of the board's.
type Laid interface {
	// Lay is the grid that Draw(f) writes, f.Height lines of f.Width.
	Lay(f Frame) Grid
}

// Yours is a Board that can show the viewing seat's own cards whole, each
// with what it does, over the board when the seat presses y: a game whose
// 80-column board cannot always show them (Furnace's auction) implements
// it, so deciding a bid never means scrolling through every card.
type Yours interface {
	// Yours draws the seat's own cards in w×h; "" for a spectator.
	Yours(t Theme, s Seats, w, h int) string
}

// Staged is a Board that names the stage of the game it shows, as a key
// only compared: a seat that goes on acting from one stage into another
// (its last market turn, then the work phase; a Furnace auction turn
// that comes back to it) has a new turn, which the line mode says as it
// says a turn that begins (session/line).
type Staged interface {
	Stage() string
}

// Told is a Board that says in words what a seat holds that no card
// shows (resources, money, goods): for a reader who asks for it, the
// line mode's look and board (session/line). "" for a seat it cannot
// tell of.
type Told interface {
	Holdings(t Theme, s Seats, seat int) string
}

// Unseated is a Board with players that hold no seat (Fantastic
// Factories' solo opponent, The Machine): a reader hears of them where
// the seats are told of, in the line mode's look and board.
type Unseated interface {
	Unseated(t Theme) []Rival
}

// Rival is a player that holds no seat: its name, what it holds in words
// ("The Machine: 7 points, goods 4, buildings 3"), and its cards.
type Rival struct {
	Name     string
	Holdings string
	Cards    []CardRef
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
	// Log draws the newest entries of the game log in w×h, every line
	// exactly w wide (FitLines): a Grid may take it as fitted.
	Log func(w, h int) string
	// Focus is the card the menu is on, for a preview; nil when none.
	Focus *CardRef
	// Ended says why the game stopped early, for the scores, worded in
	// the reader's language ("zakończona przez gospodarza"): the room's
	// own reason is English (lobby.EndedByHost), which the screen words.
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
	// Loses says what playing the move throws away, worded for the
	// player ("4 dice unused"), when it does: such a move always takes a
	// second enter, which asks saying so, and the menu never preselects
	// it while its group has a move that loses nothing.
	Loses string
}

// CardRef points at a printed card the view shows, and where it lies.
type CardRef struct {
	// Key identifies the card for its game (its name); equal keys are the
	// same printed card.
	Key   string
	Name  string
	Where string
	// Part is where the card lies, for a reader who asks for one part of
	// the table at a time (the line mode, session/line): PartMarket,
	// PartHand, PartBoard (of Seat), or "" for anything else (a rule).
	Part string
	Seat int
}

// The parts of the table a card lies in (CardRef.Part).
const (
	PartMarket = "market"
	PartHand   = "hand"
	PartBoard  = "board"
)
