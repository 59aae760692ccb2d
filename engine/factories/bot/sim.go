package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
)

// Config describes a batch of headless games. One bot means a solo game
// against The Machine, whose level is the option "difficulty" (medium
// when not given).
type Config = engine.Batch

// Result sums up a batch of games.
type Result struct {
	Games      int          `json:"games"`
	Players    int          `json:"players"`
	Difficulty string       `json:"difficulty,omitempty"`
	Seed       uint64       `json:"seed"`
	Seats      []SeatResult `json:"seats"`
	// Machine is The Machine's record in solo games.
	Machine     *SeatResult `json:"machine,omitempty"`
	AvgRounds   float64     `json:"avgRounds"`
	AvgMoves    float64     `json:"avgMoves"`
	EndCauses   EndCauses   `json:"endCauses"`
	Cards       []CardStats `json:"cards"`
	Contractors []CardStats `json:"contractors"`
}

// SeatResult is one seat's record over the batch. A shared first place
// counts as a win for each seat sharing it.
type SeatResult struct {
	Seat        int     `json:"seat"`
	Bot         string  `json:"bot"`
	Wins        int     `json:"wins"`
	WinRate     float64 `json:"winRate"`
	AvgScore    float64 `json:"avgScore"`
	AvgGoods    float64 `json:"avgGoods"`
	AvgPrestige float64 `json:"avgPrestige"`
}

// EndCauses counts what triggered the end of the games.
type EndCauses struct {
	Goods     int `json:"goods"`
	Buildings int `json:"buildings"`
	Machine   int `json:"machine"`
}

// CardStats counts how often a card was built (or hired) and activated,
// over all seats and games.
type CardStats struct {
	Name      string `json:"name"`
	Built     int    `json:"built,omitempty"`
	Hired     int    `json:"hired,omitempty"`
	Activated int    `json:"activated,omitempty"`
}

// outcome is what one game contributes to a Result.
type outcome struct {
	scores    []factories.Score
	rounds    int
	moves     int
	cause     string
	built     map[string]int
	activated map[string]int
	hired     map[string]int
}

// maxMoves stops a game that would never end: a bot bug, not a rule.
const maxMoves = 20000

// Simulate plays cfg.Games games between bots, in parallel, and sums them
// up (see engine.Simulator).
func Simulate(ctx context.Context, cfg Config) (Result, error) { return simulator.Simulate(ctx, cfg) }

var simulator = engine.Simulator[outcome, Result]{Rules: factories.Rules, Bots: JSONBots(), Play: play, Sum: summarise}

// play plays one game between the named bots (one per seat) and reports
// its outcome. Each bot is seeded from the game seed and its seat.
func play(bots []string, options map[string]string, seed uint64) (outcome, error) {
	s, err := factories.New(factories.Config{Players: len(bots), Difficulty: options["difficulty"]}, seed)
	if err != nil {
		return outcome{}, err
	}
	seats, err := engine.SeatBots(bots, seed, New)
	if err != nil {
		return outcome{}, err
	}
	o := outcome{built: map[string]int{}, activated: map[string]int{}, hired: map[string]int{}}
	for s.Phase != factories.GameOver {
		// In the work phase every seat acts; taking one move from each in
		// turn keeps the shared draws in a fixed order.
		for _, seat := range factories.StatusOf(s).Acting {
			if o.moves++; o.moves > maxMoves {
				return o, fmt.Errorf("game %d: no end after %d moves", seed, maxMoves)
			}
			v := factories.ViewOf(s, seat)
			m := seats[seat].Choose(v)
			switch m.Kind {
			case factories.Build:
				o.built[m.Card.Name()]++
			case factories.Activate:
				o.activated[m.Card.Name()]++
			case factories.Hire:
				o.hired[v.Market.Contractors[m.Slot].Name()]++
			}
			// The game is this loop's own: the move is played in place,
			// without wording events no one reads.
			if err := s.Play(seat, m, nil); err != nil {
				return o, fmt.Errorf("game %d: %s bot in seat %d chose %+v: %w", seed, bots[seat], seat+1, m, err)
			}
			if s.Phase != factories.WorkPhase && s.Phase != v.Phase {
				break // the market phase begins, or the game ended
			}
		}
	}
	o.scores, o.rounds, o.cause = factories.Scores(s), s.Round, s.EndCause
	return o, nil
}

func summarise(cfg Config, options map[string]string, outcomes []outcome) Result {
	n := float64(len(outcomes))
	res := Result{Games: len(outcomes), Players: len(cfg.Bots), Difficulty: options["difficulty"], Seed: cfg.Seed}
	for seat, name := range cfg.Bots {
		res.Seats = append(res.Seats, SeatResult{Seat: seat, Bot: name})
	}
	if len(cfg.Bots) == 1 {
		res.Machine = &SeatResult{Seat: engine.Spectator, Bot: "machine"}
	}
	built, activated, hired := map[string]int{}, map[string]int{}, map[string]int{}
	for _, o := range outcomes {
		res.AvgRounds += float64(o.rounds) / n
		res.AvgMoves += float64(o.moves) / n
		for _, sc := range o.scores {
			r := res.Machine
			if !sc.Machine {
				r = &res.Seats[sc.Seat]
			}
			if sc.Winner {
				r.Wins++
			}
			r.AvgScore += float64(sc.Total) / n
			r.AvgGoods += float64(sc.Goods) / n
			r.AvgPrestige += float64(sc.Prestige) / n
		}
		switch {
		case strings.HasPrefix(o.cause, "The Machine"):
			res.EndCauses.Machine++
		case strings.Contains(o.cause, "goods"):
			res.EndCauses.Goods++
		case strings.Contains(o.cause, "buildings"):
			res.EndCauses.Buildings++
		}
		for k, c := range o.built {
			built[k] += c
		}
		for k, c := range o.activated {
			activated[k] += c
		}
		for k, c := range o.hired {
			hired[k] += c
		}
	}
	for i := range res.Seats {
		res.Seats[i].WinRate = float64(res.Seats[i].Wins) / n
	}
	if res.Machine != nil {
		res.Machine.WinRate = float64(res.Machine.Wins) / n
	}
	for _, b := range factories.Blueprints() {
		res.Cards = append(res.Cards, CardStats{Name: b.Name, Built: built[b.Name], Activated: activated[b.Name]})
	}
	for _, c := range factories.Contractors() {
		res.Contractors = append(res.Contractors, CardStats{Name: c.Name, Hired: hired[c.Name]})
	}
	slices.SortStableFunc(res.Cards, func(a, b CardStats) int { return (b.Built + b.Activated) - (a.Built + a.Activated) })
	slices.SortStableFunc(res.Contractors, func(a, b CardStats) int { return b.Hired - a.Hired })
	return res
}
