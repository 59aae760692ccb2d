package factories

import (
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Rules is Fantastic Factories as the rooms drive it: New, Apply, ViewOf
// and StatusOf, turned into an engine.Ruleset by engine.Rules.
var Rules = engine.Rules[State, Move, View]{
	Name: "factories", Title: "Fantastic Factories",
	MinSeats: 1, MaxSeats: MaxPlayers, // 1: solo against The Machine
	Options: []engine.Option{{Name: "difficulty", Seats: 1,
		Choices: []string{"easy", "medium", "hard", "insane"}, Default: "medium",
		About: "The Machine's level: it starts with 2 (easy) to 5 (insane) blueprints built"}},
	Start: start, Apply: Apply, View: ViewOf, Status: StatusOf,
}.Ruleset()

// SoloOpponent names The Machine at the level of a solo game's options,
// for its player's record against it: "The Machine (hard)".
func SoloOpponent(options map[string]string) string {
	return "The Machine (" + options["difficulty"] + ")"
}

// start begins a game as a room plays it: one in which seats may take
// moves back (Config.Undo). Bots never do (see bot.New).
func start(seats int, o map[string]string, seed uint64) (State, error) {
	return New(Config{Players: seats, Difficulty: o["difficulty"], Undo: true}, seed)
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
func Decode(data []byte) (State, error) { return engine.DecodeState[State](data, Format) }

// FormatVersion implements engine.Versioned.
func (s State) FormatVersion() int { return s.Format }
