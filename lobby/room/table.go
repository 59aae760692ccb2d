package room

import (
	"encoding/json"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// table is the game being played at a room's table: the state its rules
// give, the game's status, and how many stored moves made it. Every call
// a room makes into the game's rules goes through it. A table is a value:
// a move is judged on a copy (play), outside the room's lock, and the
// room takes the copy once the move is stored. The room's lock guards the
// room's own table.
type table struct {
	rules  engine.Ruleset
	state  engine.State // the game, decoded; nil until every seat is taken
	status engine.Status
	moves  int // stored moves applied to state
}

// start sets the table to the opening position of the game m describes,
// its status included.
func (t *table) start(m *store.Meta) error {
	*t = table{rules: t.rules}
	state, err := t.rules.New(len(m.Seats), m.Options, m.Seed)
	if err != nil {
		return err
	}
	t.state = state
	return t.settle()
}

// clear sets the table to a game not started.
func (t *table) clear() { *t = table{rules: t.rules} }

// opening is the status of the game m describes before its first move,
// for a room that fills up (or a rematch) to store with its seats.
func (t table) opening(m *store.Meta) (engine.Status, error) {
	state, err := t.rules.New(len(m.Seats), m.Options, m.Seed)
	if err != nil {
		return engine.Status{}, err
	}
	return t.rules.Status(state)
}

// play is the table after seat plays mv, and the move's events; t itself
// is unchanged. With settle the status is worked out too (a commit, a
// room with a clock); a replay of many moves settles once at the end.
func (t table) play(seat int, mv json.RawMessage, settle bool) (table, []engine.Event, error) {
	next, events, err := t.rules.Apply(t.state, seat, mv)
	if err != nil {
		return t, nil, err
	}
	t.state, t.moves = next, t.moves+1
	if settle {
		if err := t.settle(); err != nil {
			return t, nil, err
		}
	}
	return t, events, nil
}

// settle works out the status of the state.
func (t *table) settle() error {
	if t.state == nil {
		t.status = engine.Status{}
		return nil
	}
	st, err := t.rules.Status(t.state)
	t.status = st
	return err
}

// view is the game as seat sees it; nil before the game starts.
func (t *table) view(seat int) (json.RawMessage, error) {
	if t.state == nil {
		return nil, nil
	}
	return t.rules.View(t.state, seat)
}

// viewValue is view as the game's own value; nil before the game starts.
func (t *table) viewValue(seat int) (any, error) {
	if t.state == nil {
		return nil, nil
	}
	return t.rules.ViewValue(t.state, seat)
}

// title is the game's title.
func (t *table) title() string { return t.rules.Title() }
