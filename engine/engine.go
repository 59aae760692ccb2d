// Package engine holds the game-agnostic pieces every ruleset shares: the
// contract the rooms drive (Ruleset), seats, events, results and a seeded,
// serialisable random source. It has no I/O, no clocks and no globals, so a
// seed and a move list always replay the same game.
package engine

import (
	"encoding/json"
)

// Spectator is the seat of someone watching: View for it shows public
// information only.
const Spectator = -1

// Event is one thing that happened while a move was applied, worded for the
// game log. Text is safe for everyone; Private, when set, is shown to Seat
// alone because it names hidden cards (what a player drew). Words and
// PrivateWords are the same for a translator: each reader's log words
// them in the reader's language, as what Seat did ("took Biolab from the
// marketplace"), the room naming who. Text stays English, for JSON.
type Event struct {
	Seat         int    `json:"seat"`
	Kind         string `json:"kind"`
	Text         string `json:"text"`
	Private      string `json:"private,omitempty"`
	Words        Words  `json:"words,omitzero"`
	PrivateWords Words  `json:"privateWords,omitzero"`
}

// For returns the wording of e that seat may read.
func (e Event) For(seat int) string {
	if e.Private != "" && seat == e.Seat {
		return e.Private
	}
	return e.Text
}

// WordsFor returns the Words of e that seat may read, as For does the
// text; their ID is empty when the game gave none.
func (e Event) WordsFor(seat int) Words {
	if e.Private != "" && seat == e.Seat {
		return e.PrivateWords
	}
	return e.Words
}

// Undo is the kind of the move that takes back a seat's last move, and of
// the event that move emits. A game that lets seats take moves back lists
// the move {"kind":"undo"} among a seat's legal moves while it may, and
// playing it takes back the seat's last move that still stands (not
// itself taken back), emitting one event of Kind Undo for that seat. A
// room drops the events of the move taken back from every log, so the
// log shows only what stands; the stored move log keeps both moves, so a
// replay from the seed plays the same game.
const Undo = "undo"

// UndoMove returns the undo move as JSON, for screens that offer it
// without knowing the game.
func UndoMove() json.RawMessage { return json.RawMessage(`{"kind":"undo"}`) }

// IsUndo reports whether move is the undo move.
func IsUndo(move json.RawMessage) bool {
	var m struct {
		Kind string `json:"kind"`
	}
	return json.Unmarshal(move, &m) == nil && m.Kind == Undo
}

// Status is what a room needs to know about a game without understanding it.
type Status struct {
	Round int  `json:"round"`
	Over  bool `json:"over"`
	// Acting lists the seats that may move now: the seat whose turn it is,
	// or every seat not yet done in a simultaneous phase.
	Acting []int `json:"acting"`
	// Result is how the game ended; set once Over is true.
	Result *Result `json:"result,omitempty"`
}

// Result is the outcome of a finished game, so rooms, lists and ratings
// need not replay a game to learn who won.
type Result struct {
	// Scores holds each seat's final score, by seat.
	Scores []int `json:"scores"`
	// Ranks holds each seat's place, by seat: 1 is first, and seats still
	// tied after the game's tie-breaks share a place.
	Ranks []int `json:"ranks"`
	// Winners lists the seats that won: several on a shared win, none when
	// no seat did (a solo game lost to the game's own opponent).
	Winners []int `json:"winners"`
	// Opponent is the score of the game's automated opponent in a solo
	// game ("The Machine"), when it has one.
	Opponent *int `json:"opponent,omitempty"`
	// Holdings lists, by seat, what each seat ended the game with, in
	// the game's own words (the cards of its final tableau), so that
	// profiles can count a player's favourite cards without knowing the
	// game. It is public: the game is over.
	Holdings [][]string `json:"holdings,omitempty"`
}

// DefaultValue is the option's value when none is given.
func (o Option) DefaultValue() string {
	if o.Default != "" || len(o.Choices) == 0 {
		return o.Default
	}
	return o.Choices[0]
}

// Won reports whether seat is among the winners.
func (r *Result) Won(seat int) bool {
	if r == nil {
		return false
	}
	for _, w := range r.Winners {
		if w == seat {
			return true
		}
	}
	return false
}

// Option is one setting a new room of a game may choose: `new` offers it as
// a flag and the lobby's form as a choice. Its value travels in the room's
// options JSON as a string under Name, and Ruleset.New validates it.
type Option struct {
	// Name is the flag and the JSON key: "difficulty".
	Name string `json:"name"`
	// About is one line of help, short enough for a form's line at 80
	// columns: it is what the form shows where the cursor is.
	About string `json:"about"`
	// Choices are the allowed values, in the order menus show them.
	Choices []string `json:"choices"`
	// Default is the value when none is given; empty means Choices[0].
	Default string `json:"default,omitempty"`
	// Seats, when not zero, is the only number of seats the option
	// applies to (a solo opponent's level applies to one seat).
	Seats int `json:"seats,omitempty"`
	// Needs, when set, is another option's value without which this one
	// means nothing (Arthur's timing without capitalists): forms hide it.
	Needs *Need `json:"needs,omitempty"`
}

// Need is another option's value an Option needs to mean anything.
type Need struct {
	Option string `json:"option"`
	Value  string `json:"value"`
}

// Applies reports whether the option means anything in a game of seats
// with the other options' values (as ReadOptions returns them).
func (o Option) Applies(seats int, values map[string]string) bool {
	if o.Seats != 0 && o.Seats != seats {
		return false
	}
	return o.Needs == nil || values[o.Needs.Option] == o.Needs.Value
}

// Ruleset is one game as the rooms, stores and bots see it. Moves come in
// and views go out as JSON, so the lobby can store and route them without
// knowing the game; the state between moves stays decoded, a State only
// the Ruleset reads. A game writes its rules once, in its own types, as
// Rules, whose Ruleset method makes this.
type Ruleset interface {
	// Name identifies the game in stored rooms ("factories"); it never
	// changes once rooms exist.
	Name() string
	// Title is the game's name for people ("Fantastic Factories").
	Title() string
	// Seats is the range of seats a game may have.
	Seats() (min, max int)
	// Options lists the settings a new room may choose.
	Options() []Option
	// New starts a game for the given number of seats. Options are the
	// JSON object of Options' values (absent ones take their default);
	// New refuses unknown options and values with a reason.
	New(seats int, options json.RawMessage, seed uint64) (State, error)
	// Apply plays move for seat and returns the new state. It never changes
	// state, and refuses illegal moves with an error a player can read.
	Apply(state State, seat int, move json.RawMessage) (State, []Event, error)
	// View is what seat may see of state; Spectator gets the public view.
	View(state State, seat int) (json.RawMessage, error)
	// ViewValue is View as the game's own value, a pointer to its view
	// type, whose JSON View is: screens in this process read it without
	// JSON. It shares nothing with state, and whoever holds it may hand
	// it to every reader of that seat, so readers never change it.
	ViewValue(state State, seat int) (any, error)
	// Status reports round, game over, who may act and the result.
	Status(state State) (Status, error)
}

// Bot plays one seat: given the seat's view as JSON, it returns a move. It
// never sees the state, so it cannot read hidden information.
type Bot func(view json.RawMessage) (json.RawMessage, error)

// Bots are a game's computer players.
type Bots struct {
	// Names lists the bots, the strongest first.
	Names []string
	// New makes the bot called name, seeded so a seeded game with bots
	// replays the same way.
	New func(name string, seed uint64) (Bot, error)
	// Hint, nil when the game has none, rates at most n of the seat's
	// moves from its view as JSON, best first: what a player learning
	// the game may ask for. It sees the view alone, like a bot, and is
	// seeded so that it replays the same way.
	Hint func(view json.RawMessage, seed uint64, n int) ([]Hint, error)
}

// Hint is a move a bot rates for a seat, with what the move is worth to
// it, in the game's points: higher is better, and only the moves of one
// hint compare.
type Hint struct {
	Move  json.RawMessage `json:"move"`
	Worth float64         `json:"worth"`
}
