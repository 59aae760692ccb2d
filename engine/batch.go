package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// Batch is a batch of headless games between bots, in the words every
// game shares: `smokestack simulate` fills one in, and each game's bots
// play it with their own simulator.
type Batch struct {
	// Bots names the bot in each seat; its length is the number of seats.
	Bots []string
	// Options are the game's options as a room takes them; absent ones
	// take their default.
	Options map[string]string
	Games   int
	// Seed fixes every game: game i is seeded from Seed and i alone, so
	// the results do not depend on how games are spread over workers.
	Seed uint64
	// Workers plays games in parallel; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Progress, when set, is called after each finished game with the
	// number finished so far. It may be called from several goroutines.
	Progress func(done, total int)
}

// Simulator is a game's batch simulator, in the game's own types: Play
// plays one headless game between bots (one per seat) and tells what
// happened in it, an O; Sum sums a batch's games up in an R.
type Simulator[O, R any] struct {
	Rules Ruleset
	Bots  Bots
	// Play plays one game of bots with the options' values (defaults
	// filled in), seeded with seed.
	Play func(bots []string, options map[string]string, seed uint64) (O, error)
	// Sum sums up the games of b, in order.
	Sum func(b Batch, options map[string]string, games []O) R
}

// Simulate plays b.Games games between bots, in parallel, and sums them
// up. It fails if a bot name or an option is unknown or a bot makes an
// illegal move, and stops, once the games being played end, when ctx is
// done.
func (s Simulator[O, R]) Simulate(ctx context.Context, b Batch) (R, error) {
	var none R
	opts, err := b.Check(s.Rules, s.Bots)
	if err != nil {
		return none, err
	}
	games, err := PlayBatch(ctx, b, func(seed uint64) (O, error) { return s.Play(b.Bots, opts, seed) })
	if err != nil {
		return none, err
	}
	return s.Sum(b, opts, games), nil
}

// Check refuses a batch that cannot be played as a game of rules with
// bots: too few or too many bots, a bot it does not have, no games, or
// options the game does not take. It returns every option's value,
// defaults filled in.
func (b Batch) Check(rules Ruleset, bots Bots) (map[string]string, error) {
	if lo, hi := rules.Seats(); len(b.Bots) < lo || len(b.Bots) > hi {
		return nil, fmt.Errorf("name %d to %d bots, one per seat", lo, hi)
	}
	for _, name := range b.Bots {
		if _, err := bots.New(name, 0); err != nil {
			return nil, err
		}
	}
	if b.Games < 1 {
		return nil, errors.New("play at least one game")
	}
	var options json.RawMessage
	if len(b.Options) > 0 {
		options, _ = json.Marshal(b.Options) // a map of strings always encodes
	}
	return ReadOptions(rules.Options(), len(b.Bots), options)
}

// PlayBatch plays b.Games games, on b.Workers goroutines, and returns
// what each game gave, in order: game i is play(GameSeed(b.Seed, i)). It
// fails with every game's error, and stops, once the games being played
// end, when ctx is done.
func PlayBatch[O any](ctx context.Context, b Batch, play func(seed uint64) (O, error)) ([]O, error) {
	workers := b.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, b.Games)

	outcomes := make([]O, b.Games)
	errs := make([]error, b.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Go(func() {
			for i := range next {
				outcomes[i], errs[i] = play(GameSeed(b.Seed, i))
				if b.Progress != nil {
					mu.Lock()
					done++
					n := done
					mu.Unlock()
					b.Progress(n, b.Games)
				}
			}
		})
	}
	started := 0
feed:
	for ; started < b.Games; started++ {
		select {
		case next <- started:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if started < b.Games {
		return nil, fmt.Errorf("stopped after %d of %d games: %w", started, b.Games, context.Cause(ctx))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return outcomes, nil
}

// GameSeed derives the seed of game i of a batch seeded with seed.
func GameSeed(seed uint64, i int) uint64 {
	r := NewRNG(seed ^ uint64(i)*0x9e3779b97f4a7c15)
	return r.Uint64()
}

// SeatSeed derives the seed of the bot in seat of a game seeded with
// seed, so each bot of a seeded game plays the same way every time.
func SeatSeed(seed uint64, seat int) uint64 {
	r := NewRNG(seed + uint64(seat+1)*0x2545f4914f6cdd1d)
	return r.Uint64()
}
