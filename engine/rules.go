package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// State is a game in play as its Ruleset holds it between moves: the
// game's own state, decoded, and opaque to everyone but the Ruleset that
// made it. Rooms keep it in memory and hand it back with each move; what
// they store is the log of moves, never the state. nil is no game yet.
type State any

// Rules is one game's rules in its own types: S its state, M a move and
// V what one seat sees. Its Ruleset method turns it into the Ruleset the
// rooms drive, so a game writes its rules once, typed, and the JSON the
// rooms speak (moves in, views out) is read and written here alone.
type Rules[S, M, V any] struct {
	// Name identifies the game in stored rooms ("factories"); it never
	// changes once rooms exist.
	Name string
	// Title is the game's name for people ("Fantastic Factories").
	Title string
	// MinSeats and MaxSeats are the range of seats a game may have.
	MinSeats, MaxSeats int
	// Options are the settings a new room may choose.
	Options []Option
	// Start begins a game of seats, with every option's value (checked
	// against Options, defaults filled in) and the seed.
	Start func(seats int, options map[string]string, seed uint64) (S, error)
	// Apply plays m for seat and returns the new state, never changing s:
	// a room keeps s until the move is stored. It refuses illegal moves
	// with an error a player can read.
	Apply func(s S, seat int, m M) (S, []Event, error)
	// View is what seat may see of s; Spectator gets the public view.
	View func(s S, seat int) V
	// Status reports round, game over, who may act and the result.
	Status func(s S) Status
}

// Ruleset returns r as the rooms drive it.
func (r Rules[S, M, V]) Ruleset() Ruleset { return typed[S, M, V]{r} }

// typed is Rules as a Ruleset: the state stays an S between calls.
type typed[S, M, V any] struct{ r Rules[S, M, V] }

// Name, Title, Seats, Options, New, Apply, View, ViewValue and Status
// implement Ruleset.
func (t typed[S, M, V]) Name() string          { return t.r.Name }
func (t typed[S, M, V]) Title() string         { return t.r.Title }
func (t typed[S, M, V]) Seats() (min, max int) { return t.r.MinSeats, t.r.MaxSeats }
func (t typed[S, M, V]) Options() []Option     { return t.r.Options }

func (t typed[S, M, V]) New(seats int, options json.RawMessage, seed uint64) (State, error) {
	if seats < t.r.MinSeats || seats > t.r.MaxSeats {
		return nil, fmt.Errorf("a game of %s has %d to %d seats, not %d", t.r.Title, t.r.MinSeats, t.r.MaxSeats, seats)
	}
	o, err := ReadOptions(t.r.Options, seats, options)
	if err != nil {
		return nil, err
	}
	s, err := t.r.Start(seats, o, seed)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (t typed[S, M, V]) Apply(state State, seat int, move json.RawMessage) (State, []Event, error) {
	s, err := t.state(state)
	if err != nil {
		return nil, nil, err
	}
	var m M
	if err := json.Unmarshal(move, &m); err != nil {
		// JSON of the wrong shape (a slot of 1e300, a kind that is a
		// number) is not a JSON problem: say what is wrong with it.
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil, fmt.Errorf("that move is not valid JSON: %w", err)
		}
		return nil, nil, fmt.Errorf("that move cannot be read: %w", readable(err))
	}
	next, events, err := t.r.Apply(s, seat, m)
	if err != nil {
		return nil, nil, err
	}
	return next, events, nil
}

func (t typed[S, M, V]) View(state State, seat int) (json.RawMessage, error) {
	s, err := t.state(state)
	if err != nil {
		return nil, err
	}
	return json.Marshal(t.r.View(s, seat))
}

func (t typed[S, M, V]) ViewValue(state State, seat int) (any, error) {
	s, err := t.state(state)
	if err != nil {
		return nil, err
	}
	v := t.r.View(s, seat)
	return &v, nil
}

func (t typed[S, M, V]) Status(state State) (Status, error) {
	s, err := t.state(state)
	if err != nil {
		return Status{}, err
	}
	return t.r.Status(s), nil
}

// state reads back what New or Apply made: another game's state, or none,
// is a bug in the caller, refused rather than played.
func (t typed[S, M, V]) state(state State) (S, error) {
	s, ok := state.(S)
	if !ok {
		var zero S
		return zero, fmt.Errorf("%s: not a game state of %s: %T", t.r.Name, t.r.Title, state)
	}
	return s, nil
}

// Versioned is a game's state that names the version of the format it
// was written in.
type Versioned interface {
	FormatVersion() int
}

// DecodeState reads a game's state from JSON, refusing a state written in
// another format version than want: a game's Decode.
func DecodeState[S Versioned](data []byte, want int) (S, error) {
	var s, none S
	if err := json.Unmarshal(data, &s); err != nil {
		return none, fmt.Errorf("game state: %w", err)
	}
	if got := s.FormatVersion(); got != want {
		return none, fmt.Errorf("game state format %d; this server reads %d", got, want)
	}
	return s, nil
}

// readable words a move's field of the wrong type for a player: the
// decoder's own words name Go types ("cannot unmarshal string into Go
// struct field Move.slot of type int"). Other errors (a game's own
// decoders say what they want) pass as they are.
func readable(err error) error {
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) || typ.Type == nil {
		return err
	}
	field := "the move"
	if typ.Field != "" {
		field = fmt.Sprintf("%q", typ.Field)
	}
	got, ok := strings.CutPrefix(typ.Value, "number ")
	if !ok {
		got = map[string]string{"string": "text", "number": "a number", "bool": "true or false",
			"array": "a list", "object": "an object"}[typ.Value]
	}
	if got == "" {
		got = typ.Value
	}
	return &fieldError{msg: fmt.Sprintf("%s should be %s, not %s", field, kindWord(typ.Type), got), err: err}
}

// kindWord names what a value of t is written as in JSON, for a player.
func kindWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "text in quotes"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// fieldError is a move's field of the wrong type, worded for players; it
// wraps the decoder's error for the log.
type fieldError struct {
	msg string
	err error
}

func (e *fieldError) Error() string { return e.msg }
func (e *fieldError) Unwrap() error { return e.err }
