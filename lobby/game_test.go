package lobby

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// tally is the tiny game the lobby's tests play, to show that rooms run
// any engine.Ruleset without knowing it. Each round every seat in turn
// takes the top card of a hidden, shuffled deck into its hidden hand; then
// all seats at once say they are done. After tallyRounds rounds the
// biggest hand total wins.
type tally struct{}

// tallyRounds makes a game of 2*seats*tallyRounds moves: long enough for
// the tests that stop a game in its middle.
const tallyRounds = 10

type tallyState struct {
	Deck   []int   `json:"deck"`
	Hands  [][]int `json:"hands"`
	Round  int     `json:"round"`
	Turn   int     `json:"turn"` // -1 while the seats work together
	Done   []bool  `json:"done"`
	Secret string  `json:"secret"`
}

// tallyView is what one seat sees: its own hand, the others' hand sizes.
type tallyView struct {
	Seat      int         `json:"seat"`
	Round     int         `json:"round"`
	Turn      int         `json:"turn"`
	Hand      []int       `json:"hand,omitempty"`
	HandSizes []int       `json:"handSizes"`
	Legal     []tallyMove `json:"legal,omitempty"`
	Over      bool        `json:"over"`
	Scores    []int       `json:"scores,omitempty"` // once over
}

type tallyMove struct {
	Kind string `json:"kind"` // "take" or "done"
}

func (tally) Name() string                   { return "tally" }
func (tally) Title() string                  { return "Tally" }
func (tally) Seats() (int, int)              { return 1, 5 }
func (tally) Options() []engine.Option       { return nil }
func (s *tallyState) over() bool             { return s.Round > tallyRounds }
func (t tally) decode(raw []byte) tallyState { var s tallyState; _ = json.Unmarshal(raw, &s); return s }

func (tally) New(seats int, opts json.RawMessage, seed uint64) (json.RawMessage, error) {
	if _, err := engine.ReadOptions(nil, seats, opts); err != nil {
		return nil, err
	}
	rng := engine.NewRNG(seed)
	s := tallyState{Hands: make([][]int, seats), Round: 1, Done: make([]bool, seats), Secret: "deck"}
	for i := range 40 {
		s.Deck = append(s.Deck, i%10)
	}
	rng.Shuffle(len(s.Deck), func(i, j int) { s.Deck[i], s.Deck[j] = s.Deck[j], s.Deck[i] })
	return json.Marshal(s)
}

func (t tally) Apply(raw json.RawMessage, seat int, mv json.RawMessage) (json.RawMessage, []engine.Event, error) {
	s := t.decode(raw)
	var m tallyMove
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

func (tally) legal(s tallyState, seat int) []tallyMove {
	switch {
	case s.over() || seat < 0 || seat >= len(s.Hands):
		return nil
	case s.Turn == seat:
		return []tallyMove{{"take"}}
	case s.Turn < 0 && !s.Done[seat]:
		return []tallyMove{{"done"}}
	}
	return nil
}

func (t tally) View(raw json.RawMessage, seat int) (json.RawMessage, error) {
	s := t.decode(raw)
	v := tallyView{Seat: seat, Round: s.Round, Turn: s.Turn, Legal: t.legal(s, seat), Over: s.over()}
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

func (t tally) Status(raw json.RawMessage) (engine.Status, error) {
	s := t.decode(raw)
	st := engine.Status{Round: min(s.Round, tallyRounds), Over: s.over()}
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
		}
	}
	return st, nil
}

// tallyGame is tally with its one bot, which plays its first legal move.
var tallyGame = Game{Rules: tally{}, Bots: engine.Bots{Names: []string{"first"}, New: firstLegal}}

func firstLegal(string, uint64) (engine.Bot, error) {
	return func(raw json.RawMessage) (json.RawMessage, error) {
		var v tallyView
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		if len(v.Legal) == 0 {
			return nil, errors.New("no legal move")
		}
		return json.Marshal(v.Legal[0])
	}, nil
}
