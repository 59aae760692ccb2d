package factories

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Rules is Fantastic Factories as an engine.Ruleset: the same functions as
// New, Apply, ViewOf and Legal, speaking JSON so rooms and stores need not
// know the game.
type Rules struct{}

var _ engine.Ruleset = Rules{}

// Name implements engine.Ruleset.
func (Rules) Name() string { return "factories" }

// Title implements engine.Ruleset.
func (Rules) Title() string { return "Fantastic Factories" }

// Seats implements engine.Ruleset: 1 (solo against The Machine) to 5.
func (Rules) Seats() (min, max int) { return 1, MaxPlayers }

// Options implements engine.Ruleset: The Machine's level in solo games.
func (Rules) Options() []engine.Option {
	return []engine.Option{{Name: "difficulty", Seats: 1,
		Choices: []string{"easy", "medium", "hard", "insane"}, Default: "medium",
		About: "The Machine's level in a solo game: it starts with 2 (easy) to 5 (insane) blueprints built"}}
}

// SoloOpponent names The Machine at the level of a solo game's options,
// for its player's record against it: "The Machine (hard)".
func SoloOpponent(options map[string]string) string {
	return "The Machine (" + options["difficulty"] + ")"
}

// New implements engine.Ruleset: a game in which seats may take moves
// back (Config.Undo).
func (r Rules) New(seats int, options json.RawMessage, seed uint64) (json.RawMessage, error) {
	if seats < 1 || seats > MaxPlayers {
		return nil, fmt.Errorf("a game of Fantastic Factories has 1 to %d seats, not %d", MaxPlayers, seats)
	}
	o, err := engine.ReadOptions(r.Options(), seats, options)
	if err != nil {
		return nil, err
	}
	// Rooms let players take moves back; bots never do (see bot.New).
	s, err := New(Config{Players: seats, Difficulty: o["difficulty"], Undo: true}, seed)
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
		// JSON of the wrong shape (a slot of 1e300, a kind that is a
		// number) is not a JSON problem: say so, as Furnace does.
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil, fmt.Errorf("that move is not valid JSON: %w", err)
		}
		return nil, nil, fmt.Errorf("that move cannot be read: %w", err)
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

// StatusOf reports the round, whether the game is over, who may act and,
// at the end, the result.
func StatusOf(s State) engine.Status {
	st := engine.Status{Round: s.Round, Over: s.Phase == GameOver}
	switch s.Phase {
	case GameOver:
		st.Result = result(Scores(s), len(s.Players))
		st.Result.Holdings = holdings(s)
	case MarketPhase:
		st.Acting = []int{s.Turn}
	case WorkPhase:
		for seat, p := range s.Players {
			if p.Done {
				continue
			}
			if st.Acting == nil { // space for every seat still to come
				st.Acting = make([]int, 0, len(s.Players)-seat)
			}
			st.Acting = append(st.Acting, seat)
		}
	}
	return st
}

// result turns the final scores into the engine's Result.
func result(scores []Score, seats int) *engine.Result {
	r := &engine.Result{Scores: make([]int, seats), Ranks: make([]int, seats), Winners: []int{}}
	for _, sc := range scores {
		switch {
		case sc.Machine:
			total := sc.Total
			r.Opponent = &total
		case sc.Seat >= 0 && sc.Seat < seats:
			r.Scores[sc.Seat], r.Ranks[sc.Seat] = sc.Total, sc.Rank
			if sc.Winner {
				r.Winners = append(r.Winners, sc.Seat)
			}
		}
	}
	slices.Sort(r.Winners)
	return r
}

// holdings names, by seat, the buildings of each final compound: what a
// profile counts as the player's favourite cards.
func holdings(s State) [][]string {
	out := make([][]string, len(s.Players))
	for seat, p := range s.Players {
		out[seat] = make([]string, 0, len(p.Compound))
		for _, b := range p.Compound {
			out[seat] = append(out[seat], b.Card.Name())
		}
	}
	return out
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
