package engine

import (
	"encoding/json"
	"fmt"
)

// Chooser is a bot written against its game's own types: given what its
// seat sees, a V, it chooses a move, an M.
type Chooser[V, M any] interface {
	Choose(v V) M
}

// TypedBots offers a game's bots, written against its own view and move
// types, to rooms, which speak JSON: each bot reads its seat's view as the
// room sends it and answers with a move. names lists the bots as
// Bots.Names does; newBot makes one, seeded.
func TypedBots[V, M any, B Chooser[V, M]](names []string, newBot func(name string, seed uint64) (B, error)) Bots {
	return Bots{Names: names, New: func(name string, seed uint64) (Bot, error) {
		b, err := newBot(name, seed)
		if err != nil {
			return nil, err
		}
		return func(view json.RawMessage) (json.RawMessage, error) {
			var v V
			if err := json.Unmarshal(view, &v); err != nil {
				return nil, fmt.Errorf("bot %s: read view: %w", name, err)
			}
			return json.Marshal(b.Choose(v))
		}, nil
	}}
}

// Pick returns one of moves chosen uniformly with r, or the zero move when
// there is none: what a random bot plays, the baseline every other bot
// must beat and a cheap way to walk the rules into odd corners.
func Pick[M any](r *RNG, moves []M) M {
	if len(moves) == 0 {
		var zero M
		return zero
	}
	return moves[r.Intn(len(moves))]
}

// Legal is a seat's view that lists the moves it may play.
type Legal[M any] interface {
	LegalMoves() []M
}

// Random is the bot every game has: it plays a uniformly random legal
// move of its view (see Pick).
type Random[V Legal[M], M any] struct{ rng RNG }

// NewRandom makes a Random bot, seeded.
func NewRandom[V Legal[M], M any](seed uint64) *Random[V, M] {
	return &Random[V, M]{rng: NewRNG(seed)}
}

// Name is the bot's name: "random".
func (*Random[V, M]) Name() string { return "random" }

// Choose returns one of v's legal moves, or the zero move when it has
// none.
func (r *Random[V, M]) Choose(v V) M { return Pick(&r.rng, v.LegalMoves()) }

// SeatBots makes the bot of each seat of a game seeded with seed, by
// name, each seeded from the game's seed and its seat (see SeatSeed).
func SeatBots[B any](names []string, seed uint64, newBot func(name string, seed uint64) (B, error)) ([]B, error) {
	seats := make([]B, len(names))
	for i, name := range names {
		b, err := newBot(name, SeatSeed(seed, i))
		if err != nil {
			return nil, err
		}
		seats[i] = b
	}
	return seats, nil
}
