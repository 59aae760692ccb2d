package games

import (
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// BenchmarkRulesetMove replays a seeded 4-seat game of each game through
// its Ruleset as a room plays each move: Apply, Status, then the view of
// every seat and of a spectator. ns/move is a room's cost of a move.
func BenchmarkRulesetMove(b *testing.B) {
	for _, g := range All() {
		b.Run(g.Name(), func(b *testing.B) {
			log := randomGame(b, g.Rules, 4, 11)
			played := 0
			for b.Loop() {
				state, err := g.Rules.New(4, nil, 11)
				if err != nil {
					b.Fatal(err)
				}
				for _, pm := range log {
					if state, _, err = g.Rules.Apply(state, pm.seat, pm.move); err != nil {
						b.Fatal(err)
					}
					if _, err := g.Rules.Status(state); err != nil {
						b.Fatal(err)
					}
					for seat := engine.Spectator; seat < 4; seat++ {
						if _, err := g.Rules.View(state, seat); err != nil {
							b.Fatal(err)
						}
					}
					played++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(played), "ns/move")
		})
	}
}

type playedMove struct {
	seat int
	move json.RawMessage
}

// randomGame plays a game of seats through rules, each acting seat in
// turn playing a seeded random legal move from its view, and returns
// the moves.
func randomGame(b *testing.B, rules engine.Ruleset, seats int, seed uint64) []playedMove {
	rng := engine.NewRNG(seed)
	state, err := rules.New(seats, nil, seed)
	if err != nil {
		b.Fatal(err)
	}
	var log []playedMove
	for range 5000 {
		st, err := rules.Status(state)
		if err != nil || st.Over {
			return log
		}
		seat := st.Acting[rng.Intn(len(st.Acting))]
		raw, err := rules.View(state, seat)
		if err != nil {
			b.Fatal(err)
		}
		var v struct {
			Legal []json.RawMessage `json:"legal"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			b.Fatal(err)
		}
		pm := playedMove{seat, engine.Pick(&rng, v.Legal)}
		if state, _, err = rules.Apply(state, seat, pm.move); err != nil {
			b.Fatal(err)
		}
		log = append(log, pm)
	}
	b.Fatal("no end after 5000 moves")
	return nil
}
