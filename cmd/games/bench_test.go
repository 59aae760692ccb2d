package games

import (
	"encoding/json"
	"testing"

	"github.com/smokestack/smokestack/engine"
)

// BenchmarkRulesetMove replays a seeded 4-seat game of each game through
// its Ruleset as a room plays each move: Apply, Status, then the view of
// every seat and of a spectator, as the value screens read. ns/move is a room's cost of a move.
func BenchmarkRulesetMove(b *testing.B) {
	for _, g := range All() {
		b.Run(g.Name(), func(b *testing.B) {
			log := randomGame(b, g, 4, 11)
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
						if _, err := g.Rules.ViewValue(state, seat); err != nil {
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

// randomGame plays a game of g for seats, its random bot choosing every
// move of the seats acting in turn, and returns the moves.
func randomGame(b *testing.B, g Game, seats int, seed uint64) []playedMove {
	rules := g.Rules
	bot, err := g.Bots.New("random", seed)
	if err != nil {
		b.Fatal(err)
	}
	state, err := rules.New(seats, nil, seed)
	if err != nil {
		b.Fatal(err)
	}
	var log []playedMove
	for n := 0; n < 5000; n++ {
		st, err := rules.Status(state)
		if err != nil || st.Over {
			return log
		}
		seat := st.Acting[n%len(st.Acting)]
		view, err := rules.View(state, seat)
		if err != nil {
			b.Fatal(err)
		}
		pm := playedMove{seat: seat}
		if pm.move, err = bot(view); err != nil {
			b.Fatal(err)
		}
		if state, _, err = rules.Apply(state, seat, pm.move); err != nil {
			b.Fatal(err)
		}
		log = append(log, pm)
	}
	b.Fatal("no end after 5000 moves")
	return nil
}
