// Package engine holds the game-agnostic pieces every ruleset shares: the
// contract the rooms drive (Ruleset), seats, events and a seeded,
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
// alone because it names hidden cards (what a player drew).
type Event struct {
	Seat    int    `json:"seat"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	Private string `json:"private,omitempty"`
}

// For returns the wording of e that seat may read.
func (e Event) For(seat int) string {
	if e.Private != "" && seat == e.Seat {
		return e.Private
	}
	return e.Text
}

// Status is what a room needs to know about a game without understanding it.
type Status struct {
	Round int  `json:"round"`
	Over  bool `json:"over"`
	// Acting lists the seats that may move now: the market-phase seat, or
	// every seat not yet done in the work phase.
	Acting []int `json:"acting"`
}

// Ruleset is one game as the rooms, stores and bots see it. States, moves
// and views travel as JSON so the lobby can store and route them without
// knowing the game; each game package also offers typed functions for its UI.
type Ruleset interface {
	// Name identifies the game in stored rooms ("factories").
	Name() string
	// New starts a game for the given number of seats. Options are
	// game-specific (solo difficulty) and may be empty.
	New(seats int, options json.RawMessage, seed uint64) (json.RawMessage, error)
	// Apply plays move for seat and returns the new state. It never changes
	// state, and refuses illegal moves with an error a player can read.
	Apply(state json.RawMessage, seat int, move json.RawMessage) (json.RawMessage, []Event, error)
	// View is what seat may see of state; Spectator gets the public view.
	View(state json.RawMessage, seat int) (json.RawMessage, error)
	// Status reports round, game over and who may act.
	Status(state json.RawMessage) (Status, error)
}
