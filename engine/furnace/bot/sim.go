package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/furnace"
)

// Config describes a batch of headless games: 2 to 4 bots, and the
// game's options as a room takes them ("rounds", "capitalists", "chain",
// "arthur").
type Config = engine.Batch

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
// up (see engine.Simulator).
func Simulate(ctx context.Context, cfg Config) (Result, error) { return simulator.Simulate(ctx, cfg) }

var simulator = engine.Simulator[outcome, Result]{Rules: furnace.Rules, Bots: JSONBots(), Play: play, Sum: summarise}

// play plays one game between the named bots (one per seat) and reports
// its outcome. Each bot is seeded from the game seed and its seat, and
// sees only its seat's view; the game is played in place.
func play(bots []string, options map[string]string, seed uint64) (outcome, error) {
	cfg, err := furnace.ConfigOf(len(bots), options)
	if err != nil {
		return outcome{}, err
	}
	s, err := furnace.New(cfg, seed)
	if err != nil {
		return outcome{}, err
	}
	seats, err := engine.SeatBots(bots, seed, New)
	if err != nil {
		return outcome{}, err
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
	for _, o := range furnace.Rules.Options() {
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
