// Package tally is a tiny game for the tests of the shared layers (lobby,
// session): rooms, stores and screens are shown to run any engine.Ruleset
// by running this one. Each round every seat in turn takes the top card of
// a hidden, shuffled deck into its hidden hand; then all seats at once say
// they are done. After Rounds rounds the biggest hand total wins.
package tally

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Rules is the game as an engine.Ruleset.
type Rules struct{}

// Rounds makes a game of 2*seats*Rounds moves: long enough for the tests
// that stop a game in its middle.
const Rounds = 10

type state struct {
	Deck   []int   `json:"deck"`
	Hands  [][]int `json:"hands"`
	Round  int     `json:"round"`
	Turn   int     `json:"turn"` // -1 while the seats work together
	Done   []bool  `json:"done"`
	Secret string  `json:"secret"`
}

// View is what one seat sees: its own hand, the others' hand sizes.
type View struct {
	Seat      int    `json:"seat"`
	Round     int    `json:"round"`
	Turn      int    `json:"turn"`
	Hand      []int  `json:"hand,omitempty"`
	HandSizes []int  `json:"handSizes"`
	Legal     []Move `json:"legal,omitempty"`
	Over      bool   `json:"over"`
	Scores    []int  `json:"scores,omitempty"` // once over
}

// Move is a move: take (on your turn) or done (in the shared part).
type Move struct {
	Kind string `json:"kind"` // "take" or "done"
}

var _ engine.Ruleset = Rules{}

// Name, Title, Seats, Options, New, Apply, View and Status implement
// engine.Ruleset.
func (Rules) Name() string             { return "tally" }
func (Rules) Title() string            { return "Tally" }
func (Rules) Seats() (int, int)        { return 1, 5 }
func (Rules) Options() []engine.Option { return nil }

func (s *state) over() bool { return s.Round > Rounds }

func (Rules) decode(raw []byte) (state, error) {
	var s state
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Hands) == 0 {
		return s, fmt.Errorf("not a tally state: %s", raw)
	}
	return s, nil
}

func (Rules) New(seats int, opts json.RawMessage, seed uint64) (json.RawMessage, error) {
	if _, err := engine.ReadOptions(nil, seats, opts); err != nil {
		return nil, err
	}
	rng := engine.NewRNG(seed)
	s := state{Hands: make([][]int, seats), Round: 1, Done: make([]bool, seats), Secret: "deck"}
	for i := range 40 {
		s.Deck = append(s.Deck, i%10)
	}
	rng.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	return json.Marshal(s)
}

func (t Rules) Apply(raw json.RawMessage, seat int, mv json.RawMessage) (json.RawMessage, []engine.Event, error) {
	s, err := t.decode(raw)
	if err != nil {
		return nil, nil, err
	}
	var m Move
	if err := json.Unmarshal(mv, &m); err != nil {
		return nil, nil, fmt.Errorf("that move is not valid JSON: %w", err)
	}
	if !slices.Contains(t.legal(s, seat), m) {
		return nil, nil, errors.New("it is not your turn")
	}
	var ev engine.Event
	if m.Kind == "take" {
		card := s.Deck[0]
		s.Deck, s.Hands[seat] = s.Deck[1:], append(s.Hands[seat], card)
		ev = engine.Event{Seat: seat, Kind: "take", Text: "took a card", Private: fmt.Sprintf("took a %d", card)}
		if s.Turn++; s.Turn == len(s.Hands) {
			s.Turn = -1
		}
	} else {
		s.Done[seat] = true
		ev = engine.Event{Seat: seat, Kind: "done", Text: "is done"}
		if !slices.Contains(s.Done, false) {
			s.Round, s.Turn, s.Done = s.Round+1, 0, make([]bool, len(s.Hands))
		}
	}
	out, err := json.Marshal(s)
	return out, []engine.Event{ev}, err
}

func (Rules) legal(s state, seat int) []Move {
	switch {
	case s.over() || seat < 0 || seat >= len(s.Hands):
		return nil
	case s.Turn == seat:
		return []Move{{"take"}}
	case s.Turn < 0 && !s.Done[seat]:
		return []Move{{"done"}}
	}
	return nil
}

func (t Rules) View(raw json.RawMessage, seat int) (json.RawMessage, error) {
	s, err := t.decode(raw)
	if err != nil {
		return nil, err
	}
	v := View{Seat: seat, Round: s.Round, Turn: s.Turn, Legal: t.legal(s, seat), Over: s.over()}
	if v.Over {
		st, _ := t.Status(raw)
		v.Scores = st.Result.Scores
	}
	for i, h := range s.Hands {
		v.HandSizes = append(v.HandSizes, len(h))
		if i == seat {
			v.Hand = h
		}
	}
	return json.Marshal(v)
}

func (t Rules) Status(raw json.RawMessage) (engine.Status, error) {
	s, err := t.decode(raw)
	if err != nil {
		return engine.Status{}, err
	}
	st := engine.Status{Round: min(s.Round, Rounds), Over: s.over()}
	for seat := range s.Hands {
		if len(t.legal(s, seat)) > 0 {
			st.Acting = append(st.Acting, seat)
		}
	}
	if st.Over {
		st.Result = &engine.Result{Winners: []int{}}
		for _, h := range s.Hands {
			total := 0
			for _, c := range h {
				total += c
			}
			st.Result.Scores = append(st.Result.Scores, total)
		}
		best := slices.Max(st.Result.Scores)
		for seat, sc := range st.Result.Scores {
			if sc == best {
				st.Result.Winners = append(st.Result.Winners, seat)
			}
			// A seat's place: one more than the seats that scored more.
			place := 1
			for _, other := range st.Result.Scores {
				if other > sc {
					place++
				}
			}
			st.Result.Ranks = append(st.Result.Ranks, place)
			var held []string
			for _, c := range s.Hands[seat] {
				held = append(held, fmt.Sprint(c))
			}
			st.Result.Holdings = append(st.Result.Holdings, held)
		}
	}
	return st, nil
}

// Bots are the game's one bot, "first", which plays its first legal move.
func Bots() engine.Bots { return engine.Bots{Names: []string{"first"}, New: FirstLegal} }

// FirstLegal makes the bot that plays the first legal move of its view.
func FirstLegal(string, uint64) (engine.Bot, error) {
	return func(raw json.RawMessage) (json.RawMessage, error) {
		var v View
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		if len(v.Legal) == 0 {
			return nil, errors.New("no legal move")
		}
		return json.Marshal(v.Legal[0])
	}, nil
}
