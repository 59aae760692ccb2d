package factories

import (
	"encoding/json"
	"fmt"

	"github.com/smokestack/smokestack/engine"
)

// Rules is Fantastic Factories as an engine.Ruleset: the same functions as
// New, Apply, ViewOf and Legal, speaking JSON so rooms and stores need not
// know the game.
type Rules struct{}

var _ engine.Ruleset = Rules{}

// Name implements engine.Ruleset.
func (Rules) Name() string { return "factories" }

// Options are the game options a room may pass to New.
type Options struct {
	Difficulty string `json:"difficulty,omitempty"`
}

// New implements engine.Ruleset.
func (Rules) New(seats int, options json.RawMessage, seed uint64) (json.RawMessage, error) {
	var o Options
	if len(options) > 0 {
		if err := json.Unmarshal(options, &o); err != nil {
			return nil, fmt.Errorf("game options: %w", err)
		}
	}
	s, err := New(Config{Players: seats, Difficulty: o.Difficulty}, seed)
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// Apply implements engine.Ruleset.
func (Rules) Apply(state json.RawMessage, seat int, move json.RawMessage) (json.RawMessage, []engine.Event, error) {
	s, err := Decode(state)
	if err != nil {
		return nil, nil, err
	}
	var m Move
	if err := json.Unmarshal(move, &m); err != nil {
		return nil, nil, fmt.Errorf("that move is not valid JSON: %w", err)
	}
	next, events, err := Apply(s, seat, m)
	if err != nil {
		return nil, nil, err
	}
	out, err := json.Marshal(next)
	return out, events, err
}

// View implements engine.Ruleset.
func (Rules) View(state json.RawMessage, seat int) (json.RawMessage, error) {
	s, err := Decode(state)
	if err != nil {
		return nil, err
	}
	return json.Marshal(ViewOf(s, seat))
}

// Status implements engine.Ruleset.
func (Rules) Status(state json.RawMessage) (engine.Status, error) {
	s, err := Decode(state)
	if err != nil {
		return engine.Status{}, err
	}
	return StatusOf(s), nil
}

// StatusOf reports the round, whether the game is over and who may act.
func StatusOf(s State) engine.Status {
	st := engine.Status{Round: s.Round, Over: s.Phase == GameOver}
	switch s.Phase {
	case MarketPhase:
		st.Acting = []int{s.Turn}
	case WorkPhase:
		for seat, p := range s.Players {
			if p.Done {
				continue
			}
			if st.Acting == nil { // room for every seat still to come
				st.Acting = make([]int, 0, len(s.Players)-seat)
			}
			st.Acting = append(st.Acting, seat)
		}
	}
	return st
}

// Decode reads a State from JSON, refusing other format versions.
func Decode(data []byte) (State, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, fmt.Errorf("game state: %w", err)
	}
	if s.Format != Format {
		return State{}, fmt.Errorf("game state format %d; this server reads %d", s.Format, Format)
	}
	return s, nil
}
