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

// Rules is the game as an engine.Ruleset, made the way every game's is:
// typed functions turned into one by engine.Rules.
var Rules = engine.Rules[state, Move, View]{
	Name: "tally", Title: "Tally", MinSeats: 1, MaxSeats: 5,
	Start: start, Apply: apply, View: view, Status: status,
}.Ruleset()

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

// LegalMoves are the seat's legal moves, for engine.Random.
func (v View) LegalMoves() []Move { return v.Legal }

// Move is a move: take (on your turn) or done (in the shared part).
type Move struct {
	Kind string `json:"kind"` // "take" or "done"
}

func (s *state) over() bool { return s.Round > Rounds }

func start(seats int, _ map[string]string, seed uint64) (state, error) {
	rng := engine.NewRNG(seed)
	s := state{Hands: make([][]int, seats), Round: 1, Done: make([]bool, seats), Secret: "deck"}
	for i := range 40 {
		s.Deck = append(s.Deck, i%10)
	}
	rng.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	return s, nil
}

// apply plays m on a copy of s: the room keeps s until the move is stored.
func apply(s state, seat int, m Move) (state, []engine.Event, error) {
	if !slices.Contains(legal(s, seat), m) {
		return s, nil, errors.New("it is not your turn")
	}
	s.Hands, s.Done = slices.Clone(s.Hands), slices.Clone(s.Done)
	var ev engine.Event
	if m.Kind == "take" {
		card := s.Deck[0]
		s.Deck, s.Hands[seat] = s.Deck[1:], append(slices.Clip(s.Hands[seat]), card)
		ev = engine.Event{Seat: seat, Kind: "take", Text: "took a card", Private: fmt.Sprintf("took a %d", card)}
		if s.Turn++; s.Turn == len(s.Hands) {
			s.Turn = -1
		}
	} else {
		s.Done[seat] = true
		ev = engine.Event{Seat: seat, Kind: "done", Text: "said done"}
		if !slices.Contains(s.Done, false) {
			s.Round, s.Turn, s.Done = s.Round+1, 0, make([]bool, len(s.Hands))
		}
	}
	return s, []engine.Event{ev}, nil
}

func legal(s state, seat int) []Move {
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

func view(s state, seat int) View {
	v := View{Seat: seat, Round: s.Round, Turn: s.Turn, Legal: legal(s, seat), Over: s.over()}
	if v.Over {
		v.Scores = status(s).Result.Scores
	}
	for i, h := range s.Hands {
		v.HandSizes = append(v.HandSizes, len(h))
		if i == seat {
			v.Hand = h
		}
	}
	return v
}

func status(s state) engine.Status {
	st := engine.Status{Round: min(s.Round, Rounds), Over: s.over()}
	for seat := range s.Hands {
		if len(legal(s, seat)) > 0 {
			st.Acting = append(st.Acting, seat)
		}
	}
	if st.Over {
		st.Result = result(s)
	}
	return st
}

// result is the final standing: the biggest hand total wins.
func result(s state) *engine.Result {
	r := &engine.Result{Winners: []int{}}
	for _, h := range s.Hands {
		total := 0
		for _, c := range h {
			total += c
		}
		r.Scores = append(r.Scores, total)
	}
	best := slices.Max(r.Scores)
	for seat, sc := range r.Scores {
		if sc == best {
			r.Winners = append(r.Winners, seat)
		}
		// A seat's place: one more than the seats that scored more.
		place := 1
		for _, other := range r.Scores {
			if other > sc {
				place++
			}
		}
		r.Ranks = append(r.Ranks, place)
		var held []string
		for _, c := range s.Hands[seat] {
			held = append(held, fmt.Sprint(c))
		}
		r.Holdings = append(r.Holdings, held)
	}
	return r
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
