package furnace

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Rules is Furnace as the rooms drive it: New, Apply, ViewOf and
// StatusOf, turned into an engine.Ruleset by engine.Rules.
var Rules = engine.Rules[State, Move, View]{
	Name: "furnace", Title: "Furnace",
	MinSeats: MinPlayers, MaxSeats: MaxPlayers, // 2: with the Agent
	Options: options, Start: start, Apply: Apply, View: ViewOf, Status: StatusOf,
}.Ruleset()

var options = []engine.Option{
	{Name: "rounds", Choices: []string{"4", "3"}, Default: "4",
		About: "the number of rounds: 4, or 3 for a shorter game"},
	{Name: "capitalists", Choices: []string{"off", "on"}, Default: "off",
		About: "each player is dealt a capitalist with a power of their own"},
	{Name: "chain", Choices: []string{"off", "on"}, Default: "off",
		About: "production chain: your cards form a row that produces left to right"},
	{Name: "arthur", Choices: []string{string(ArthurAlone), string(ArthurPaired)}, Default: string(ArthurAlone),
		About: "Arthur's extra 2 disc: on a turn of its own, or paired with another",
		Needs: &engine.Need{Option: "capitalists", Value: "on"}},
}

// start begins a game as a room plays it: one in which seats may take
// moves back (Config.Undo). Bots never do (see bot.New).
func start(seats int, o map[string]string, seed uint64) (State, error) {
	cfg, err := ConfigOf(seats, o)
	if err != nil {
		return State{}, err
	}
	cfg.Undo = true
	return New(cfg, seed)
}

// ConfigOf reads a game's Config from option values as engine.ReadOptions
// returns them (absent ones take their default).
func ConfigOf(seats int, o map[string]string) (Config, error) {
	cfg := Config{Players: seats, Rounds: Rounds, Arthur: ArthurTiming(o["arthur"])}
	switch o["rounds"] {
	case "", "4":
	case "3":
		cfg.Rounds = ShortRounds
	default:
		return Config{}, refuse(fmt.Sprintf("--rounds %q: choose 4 or 3", o["rounds"]), "furnace.refuse.optionRounds", engine.Str("Value", o["rounds"]))
	}
	for _, f := range []struct {
		name string
		on   *bool
	}{{"capitalists", &cfg.Capitalists}, {"chain", &cfg.Chain}} {
		switch o[f.name] {
		case "", "off":
		case "on":
			*f.on = true
		default:
			return Config{}, refuse(fmt.Sprintf("--%s %q: choose off or on", f.name, o[f.name]), "furnace.refuse.optionOnOff",
				engine.Str("Option", f.name), engine.Str("Value", o[f.name]))
		}
	}
	return cfg, nil
}

// Decode reads a State from JSON, refusing other format versions.
func Decode(data []byte) (State, error) { return engine.DecodeState[State](data, Format) }

// FormatVersion implements engine.Versioned.
func (s State) FormatVersion() int { return s.Format }

// StatusOf reports the round, whether the game is over, who may act and,
// at the end, the result. Acting is the seat to place a disc in the
// auction, the seats with a compensation to choose while it is resolved,
// and every seat not yet done in production.
func StatusOf(s State) engine.Status {
	st := engine.Status{Round: s.Round, Over: s.Phase == GameOver}
	switch s.Phase {
	case GameOver:
		st.Result = result(Scores(s), len(s.Players))
		st.Result.Holdings = holdings(s)
	case AuctionPhase:
		st.Acting = []int{s.Turn}
	case ResolvePhase, ProductionPhase:
		for seat, p := range s.Players {
			if (s.Phase == ResolvePhase && p.Owed > 0) || (s.Phase == ProductionPhase && !p.Done) {
				st.Acting = append(st.Acting, seat)
			}
		}
	}
	return st
}

// holdings names, by seat, the companies each seat ended with (its start
// card left out: every seat has one): what a profile counts as the
// player's favourite cards.
func holdings(s State) [][]string {
	out := make([][]string, len(s.Players))
	for seat, p := range s.Players {
		out[seat] = []string{}
		for _, o := range p.Cards {
			if !o.Card.IsStart() {
				out[seat] = append(out[seat], o.Card.ID())
			}
		}
		for _, c := range p.New {
			out[seat] = append(out[seat], c.ID())
		}
	}
	return out
}

// Score is one seat's final standing.
type Score struct {
	Seat  int `json:"seat"`
	Money int `json:"money"`
	// Cards counts the seat's cards, start card included: the first
	// tie-break. Resources (coal, iron, oil and upgrade tokens) the second.
	Cards     int  `json:"cards"`
	Resources int  `json:"resources"`
	Rank      int  `json:"rank"` // 1 for the winners
	Winner    bool `json:"winner"`
}

// Scores ranks the seats, best first: the most money wins; ties go to the
// most cards, then the most resources; seats still tied share the place
// (and the win).
func Scores(s State) []Score {
	out := make([]Score, len(s.Players))
	for seat, p := range s.Players {
		out[seat] = Score{Seat: seat, Money: p.Goods.Money, Cards: len(p.Cards) + len(p.New), Resources: p.Goods.Resources()}
	}
	order := func(a, b Score) int {
		return cmp.Or(cmp.Compare(b.Money, a.Money), cmp.Compare(b.Cards, a.Cards), cmp.Compare(b.Resources, a.Resources))
	}
	slices.SortStableFunc(out, order)
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && order(out[i-1], out[i]) == 0 {
			out[i].Rank = out[i-1].Rank
		}
		out[i].Winner = out[i].Rank == 1
	}
	return out
}

// result turns the final scores into the engine's Result.
func result(scores []Score, seats int) *engine.Result {
	r := &engine.Result{Scores: make([]int, seats), Ranks: make([]int, seats), Winners: []int{}}
	for _, sc := range scores {
		r.Scores[sc.Seat], r.Ranks[sc.Seat] = sc.Money, sc.Rank
		if sc.Winner {
			r.Winners = append(r.Winners, sc.Seat)
		}
	}
	slices.Sort(r.Winners)
	return r
}
