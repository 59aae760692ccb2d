package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// Config describes a batch of headless games.
type Config struct {
	// Bots names the bot in each seat; its length is the number of
	// players (2 to 4).
	Bots  []string
	Games int
	// Seed fixes every game: game i is seeded from Seed and i alone, so
	// the results do not depend on how games are spread over workers.
	Seed uint64
	// Workers plays games in parallel; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// Options are the game's options as a room takes them ("rounds",
	// "capitalists", "chain", "arthur"); absent ones take their default.
	Options map[string]string
	// Progress, when set, is called after each finished game with the
	// number finished so far. It may be called from several goroutines.
	Progress func(done, total int)
}

// Result sums up a batch of games.
type Result struct {
	Games   int               `json:"games"`
	Players int               `json:"players"`
	Seed    uint64            `json:"seed"`
	Options map[string]string `json:"options"`
	Seats   []SeatResult      `json:"seats"`
	// AvgRounds and AvgMoves are per game.
	AvgRounds float64 `json:"avgRounds"`
	AvgMoves  float64 `json:"avgMoves"`
}

// SeatResult is one seat's record over the batch. A shared first place
// counts as a win for each seat sharing it (Shared counts those).
type SeatResult struct {
	Seat     int     `json:"seat"`
	Bot      string  `json:"bot"`
	Wins     int     `json:"wins"`
	Shared   int     `json:"shared"`
	WinRate  float64 `json:"winRate"`
	AvgMoney float64 `json:"avgMoney"`
}

// outcome is what one game contributes to a Result.
type outcome struct {
	scores []furnace.Score
	rounds int
	moves  int
}

// maxMoves stops a game that would never end: a bot bug, not a rule.
const maxMoves = 20000

// Simulate plays cfg.Games games between bots, in parallel, and sums them
// up. It fails if a bot name or an option is unknown or a bot makes an
// illegal move, and stops, once the games being played end, when ctx is
// done.
func Simulate(ctx context.Context, cfg Config) (Result, error) {
	lo, hi := furnace.Rules{}.Seats()
	if len(cfg.Bots) < lo || len(cfg.Bots) > hi {
		return Result{}, fmt.Errorf("name %d to %d bots, one per seat", lo, hi)
	}
	for _, name := range cfg.Bots {
		if _, err := New(name, 0); err != nil {
			return Result{}, err
		}
	}
	if cfg.Games < 1 {
		return Result{}, errors.New("play at least one game")
	}
	var options json.RawMessage
	if len(cfg.Options) > 0 {
		options, _ = json.Marshal(cfg.Options) // a map of strings always encodes
	}
	opts, err := engine.ReadOptions(furnace.Rules{}.Options(), len(cfg.Bots), options)
	if err != nil {
		return Result{}, err
	}
	game, err := furnace.ConfigOf(len(cfg.Bots), opts)
	if err != nil {
		return Result{}, err
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, cfg.Games)

	outcomes := make([]outcome, cfg.Games)
	errs := make([]error, cfg.Games)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range workers {
		wg.Go(func() {
			for i := range next {
				outcomes[i], errs[i] = play(cfg.Bots, game, GameSeed(cfg.Seed, i))
				if cfg.Progress != nil {
					mu.Lock()
					done++
					n := done
					mu.Unlock()
					cfg.Progress(n, cfg.Games)
				}
			}
		})
	}
	started := 0
feed:
	for ; started < cfg.Games; started++ {
		select {
		case next <- started:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if started < cfg.Games {
		return Result{}, fmt.Errorf("stopped after %d of %d games: %w", started, cfg.Games, context.Cause(ctx))
	}
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	return summarise(cfg, opts, outcomes), nil
}

// GameSeed derives the seed of game i of a batch seeded with seed.
func GameSeed(seed uint64, i int) uint64 {
	r := engine.NewRNG(seed ^ uint64(i)*0x9e3779b97f4a7c15)
	return r.Uint64()
}

// play plays one game between the named bots (one per seat) and reports
// its outcome. Each bot is seeded from the game seed and its seat, and
// sees only its seat's view; the game is played in place.
func play(bots []string, cfg furnace.Config, seed uint64) (outcome, error) {
	cfg.Players = len(bots)
	s, err := furnace.New(cfg, seed)
	if err != nil {
		return outcome{}, err
	}
	seats := make([]Bot, len(bots))
	for i, name := range bots {
		r := engine.NewRNG(seed + uint64(i+1)*0x2545f4914f6cdd1d)
		if seats[i], err = New(name, r.Uint64()); err != nil {
			return outcome{}, err
		}
	}
	var o outcome
	for s.Phase != furnace.GameOver {
		// Seats acting at once (compensation, production) take one move
		// each in seat order, which keeps a game the same however it is
		// scheduled.
		for _, seat := range furnace.StatusOf(s).Acting {
			if o.moves++; o.moves > maxMoves {
				return o, fmt.Errorf("game %d: no end after %d moves", seed, maxMoves)
			}
			phase, round := s.Phase, s.Round
			m := seats[seat].Choose(furnace.ViewOf(s, seat))
			if err := s.Play(seat, m); err != nil {
				move, _ := json.Marshal(m)
				return o, fmt.Errorf("game %d: %s bot in seat %d chose %s: %w", seed, bots[seat], seat+1, move, err)
			}
			if s.Phase != phase || s.Round != round {
				break // a new phase: ask who acts now
			}
		}
	}
	o.scores, o.rounds = furnace.Scores(s), s.Round
	return o, nil
}

func summarise(cfg Config, opts map[string]string, outcomes []outcome) Result {
	n := float64(len(outcomes))
	res := Result{Games: len(outcomes), Players: len(cfg.Bots), Seed: cfg.Seed, Options: opts}
	for seat, name := range cfg.Bots {
		res.Seats = append(res.Seats, SeatResult{Seat: seat, Bot: name})
	}
	for _, o := range outcomes {
		res.AvgRounds += float64(o.rounds) / n
		res.AvgMoves += float64(o.moves) / n
		winners := 0
		for _, sc := range o.scores {
			if sc.Winner {
				winners++
			}
		}
		for _, sc := range o.scores {
			r := &res.Seats[sc.Seat]
			if sc.Winner {
				r.Wins++
				if winners > 1 {
					r.Shared++
				}
			}
			r.AvgMoney += float64(sc.Money) / n
		}
	}
	for i := range res.Seats {
		res.Seats[i].WinRate = float64(res.Seats[i].Wins) / n
	}
	return res
}

// WriteReport prints the result as a short table for people.
func (r Result) WriteReport(w io.Writer) error {
	var opts []string
	for _, o := range (furnace.Rules{}).Options() {
		if v, ok := r.Options[o.Name]; ok {
			opts = append(opts, o.Name+" "+v)
		}
	}
	if _, err := fmt.Fprintf(w, "%d games of Furnace, %d players, seed %d (%s)\naverage %.1f rounds, %.0f moves a game\n\n",
		r.Games, r.Players, r.Seed, strings.Join(opts, ", "), r.AvgRounds, r.AvgMoves); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seat\tbot\twins\tshared\twin rate\tavg money\t")
	for _, s := range r.Seats {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.1f%%\t%.1f\t\n", s.Seat+1, s.Bot, s.Wins, s.Shared, 100*s.WinRate, s.AvgMoney)
	}
	return tw.Flush()
}
