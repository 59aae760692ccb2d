package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/smokestack/smokestack/engine/furnace"
)

func TestNew(t *testing.T) {
	if !slices.Equal(Names(), []string{"greedy", "random", "search"}) || !slices.Equal(JSONBots().Names, Names()) {
		t.Errorf("names %v, JSON names %v", Names(), JSONBots().Names)
	}
	for _, name := range Names() {
		b, err := New(name, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if b.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, b.Name())
		}
	}
	if _, err := New("oracle", 1); err == nil || !strings.Contains(err.Error(), "choose greedy or random") {
		t.Errorf("New of an unknown bot: %v", err)
	}
}

// playJSON plays a whole game through the JSON Ruleset and JSONBots, as a
// room does: each bot gets only the view JSON of its seat. As in a room,
// seats may take moves back; bots never do.
func playJSON(t *testing.T, names []string, options string, seed uint64) (moves []string) {
	t.Helper()
	rules := furnace.Rules
	state, err := rules.New(len(names), json.RawMessage(options), seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := JSONBots()
	seats := make([]func(json.RawMessage) (json.RawMessage, error), len(names))
	for i, name := range names {
		b, err := bots.New(name, seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		seats[i] = b
	}
	for n := 0; ; n++ {
		if n > maxMoves {
			t.Fatalf("seed %d: no end after %d moves", seed, maxMoves)
		}
		st, err := rules.Status(state)
		if err != nil {
			t.Fatal(err)
		}
		if st.Over {
			return moves
		}
		seat := st.Acting[n%len(st.Acting)]
		view, err := rules.View(state, seat)
		if err != nil {
			t.Fatal(err)
		}
		move, err := seats[seat](view)
		if err != nil {
			t.Fatal(err)
		}
		var v furnace.View
		var m furnace.Move
		if err := json.Unmarshal(view, &v); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(move, &m); err != nil {
			t.Fatal(err)
		}
		if m.Kind == furnace.Undo {
			t.Fatalf("seed %d: %s in seat %d took a move back", seed, names[seat], seat)
		}
		if slices.ContainsFunc(v.Legal, func(l furnace.Move) bool { return l.Kind == furnace.Undo }) {
			undoOffered.Add(1)
		}
		if !slices.Contains(v.Legal, m) {
			t.Fatalf("seed %d: %s in seat %d chose %s, not among its %d legal moves", seed, names[seat], seat, move, len(v.Legal))
		}
		if state, _, err = rules.Apply(state, seat, move); err != nil {
			t.Fatalf("seed %d: %s in seat %d: %v", seed, names[seat], seat, err)
		}
		moves = append(moves, string(move))
	}
}

// undoOffered counts the views in which playJSON's bots could have taken
// a move back.
var undoOffered atomic.Int64

// TestBotsPlayLegalMovesFromViews plays every bot in every size and
// setting through JSON, each move checked against the view's legal moves.
func TestBotsPlayLegalMovesFromViews(t *testing.T) {
	t.Cleanup(func() {
		if undoOffered.Load() == 0 {
			t.Error("no bot was ever offered undo: the test shows nothing about bots and undo")
		}
	})
	games := 3
	if testing.Short() || raceEnabled {
		games = 1
	}
	options := []string{``, `{"capitalists":"on"}`, `{"capitalists":"on","chain":"on","arthur":"paired"}`, `{"chain":"on","rounds":"3"}`}
	for players := 2; players <= 4; players++ {
		for oi, opts := range options {
			t.Run(fmt.Sprintf("%dp-%d", players, oi), func(t *testing.T) {
				t.Parallel()
				names := make([]string, players)
				for i := range names {
					names[i] = Names()[i%2]
				}
				for g := range games {
					playJSON(t, names, opts, uint64(1000*players+10*oi+g))
				}
			})
		}
	}
}

func TestBotsAreDeterministic(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			names := []string{name, name, "random"}
			a, b := playJSON(t, names, `{"capitalists":"on"}`, 7), playJSON(t, names, `{"capitalists":"on"}`, 7)
			if !slices.Equal(a, b) {
				t.Errorf("two games with seed 7 differ")
			}
		})
	}
}

func TestNoLegalMoveGivesTheZeroMove(t *testing.T) {
	for _, name := range Names() {
		b, _ := New(name, 1)
		if m := b.Choose(furnace.View{}); m != (furnace.Move{}) {
			t.Errorf("%s with no legal moves chose %+v", name, m)
		}
		one := furnace.View{Legal: []furnace.Move{{Kind: furnace.Done}}}
		if m := b.Choose(one); m.Kind != furnace.Done {
			t.Errorf("%s with one legal move chose %+v", name, m)
		}
	}
}

// TestGreedyBeatsRandom: greedy must win at least 90% of 2-player games
// against random. The full measure is 1,000 games (docs/furnace.md); this
// plays fewer.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() || raceEnabled {
		games = 30
	}
	res, err := Simulate(t.Context(), Config{Bots: []string{"greedy", "random"}, Games: games, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	if rate := res.Seats[0].WinRate; rate < 0.9 {
		t.Errorf("greedy beat random in %.0f%% of %d games; want at least 90%%", 100*rate, games)
	}
}

// TestGreedyPlansProduction: in the last round greedy turns what it can
// into money, in an order that feeds its sales. It holds 3 iron, and
// start-3 (+1 token; 3 coal -> 4), metal-02 (1 token -> 5), oil-08 (1 iron
// -> 1 token) and mine-09 (1 iron -> 2, twice): one token sold for 5 and
// two iron for 4 make 9, the most there is; metal-02 before any token
// makes less.
func TestGreedyPlansProduction(t *testing.T) {
	s, err := furnace.New(furnace.Config{Players: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.Round, s.Phase, s.Market = 4, furnace.ProductionPhase, nil
	byID := func(id string) furnace.Card {
		c, ok := furnace.CardByID(id)
		if !ok {
			t.Fatalf("no card %s", id)
		}
		return c
	}
	if s.Players[1].Cards[0].Card == byID("start-3") {
		s.Players[1].Cards[0] = s.Players[0].Cards[0]
	}
	p := &s.Players[0]
	p.Cards = []furnace.Owned{{Card: byID("start-3")}, {Card: byID("metal-02")}, {Card: byID("oil-08")}, {Card: byID("mine-09")}}
	p.Goods = furnace.Goods{Iron: 3}
	s.Deck = slices.DeleteFunc(s.Deck, func(c furnace.Card) bool {
		return slices.ContainsFunc(p.Cards, func(o furnace.Owned) bool { return o.Card == c })
	})
	b := newGreedy(1)
	var plan []string
	for !s.Players[0].Done {
		m := b.Choose(furnace.ViewOf(s, 0))
		if err := s.Play(0, m); err != nil {
			t.Fatalf("greedy chose %s: %v", m.Describe(furnace.ViewOf(s, 0)), err)
		}
		plan = append(plan, m.Describe(furnace.ViewOf(s, 0)))
	}
	if got := s.Players[0].Goods.Money; got != 9 {
		t.Errorf("greedy made %d money (%+v) by %v; want 9", got, s.Players[0].Goods, plan)
	}
}

func TestSimulateIsReproducible(t *testing.T) {
	cfg := Config{Bots: []string{"greedy", "random", "random"}, Games: 8, Seed: 3, Workers: 1, Options: map[string]string{"capitalists": "on"}}
	a, err := Simulate(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 4
	b, err := Simulate(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	if string(x) != string(y) {
		t.Errorf("1 worker and 4 workers gave different results:\n%s\n%s", x, y)
	}
	wins := 0
	for _, s := range a.Seats {
		wins += s.Wins - s.Shared
	}
	if a.Games != 8 || a.AvgRounds != 4 || a.Options["capitalists"] != "on" || a.Options["rounds"] != "4" || wins > 8 {
		t.Errorf("result = %s", x)
	}
}

// TestWriteReport pins the report's table.
func TestWriteReport(t *testing.T) {
	r := Result{Games: 10, Players: 2, Seed: 4, Options: map[string]string{"rounds": "3", "capitalists": "off", "chain": "on", "arthur": "alone"},
		AvgRounds: 3, AvgMoves: 52.4, Seats: []SeatResult{
			{Seat: 0, Bot: "greedy", Wins: 9, Shared: 1, WinRate: 0.9, AvgMoney: 40.25},
			{Seat: 1, Bot: "random", Wins: 2, Shared: 1, WinRate: 0.2, AvgMoney: 8}}}
	var b bytes.Buffer
	if err := r.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	want := `10 games of Furnace, 2 players, seed 4 (rounds 3, capitalists off, chain on, arthur alone)
average 3.0 rounds, 52 moves a game

  seat     bot  wins  shared  win rate  avg money
     1  greedy     9       1     90.0%       40.2
     2  random     2       1     20.0%        8.0
`
	if got := b.String(); got != want {
		t.Errorf("report\n%s\nwant\n%s", got, want)
	}
}

func TestSimulateRefusesBadConfigs(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Games: 1}, "name 2 to 4 bots"},
		{Config{Bots: []string{"random"}, Games: 1}, "name 2 to 4 bots"},
		{Config{Bots: make([]string, 5), Games: 1}, "name 2 to 4 bots"},
		{Config{Bots: []string{"random", "nobody"}, Games: 1}, `unknown bot "nobody"`},
		{Config{Bots: []string{"random", "random"}, Games: 0}, "at least one game"},
		{Config{Bots: []string{"random", "random"}, Games: 1, Options: map[string]string{"rounds": "9"}}, "choose 4 or 3"},
		{Config{Bots: []string{"random", "random"}, Games: 1, Options: map[string]string{"speed": "fast"}}, `has no option`},
	} {
		if _, err := Simulate(t.Context(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Simulate(%+v): %v; want %q", tc.cfg, err, tc.want)
		}
	}
}

// BenchmarkRandomPlayout plays 4-player games of random bots, each
// deciding from its seat's view.
func BenchmarkRandomPlayout(b *testing.B) {
	bots := []string{"random", "random", "random", "random"}
	for i := 0; b.Loop(); i++ {
		if _, err := play(bots, nil, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGreedyGame plays 2-player games of greedy against random.
func BenchmarkGreedyGame(b *testing.B) {
	bots := []string{"greedy", "random"}
	for i := 0; b.Loop(); i++ {
		if _, err := play(bots, nil, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGreedyMove times greedy's decisions in the positions of a few
// 4-player greedy games.
func BenchmarkGreedyMove(b *testing.B) {
	var views []furnace.View
	for seed := range uint64(3) {
		s, _ := furnace.New(furnace.Config{Players: 4}, seed)
		bots := []Bot{newGreedy(1), newGreedy(2), newGreedy(3), newGreedy(4)}
		for s.Phase != furnace.GameOver {
			seat := furnace.StatusOf(s).Acting[0]
			v := furnace.ViewOf(s, seat)
			views = append(views, v)
			_ = s.Play(seat, bots[seat].Choose(v))
		}
	}
	g := newGreedy(9)
	for i := 0; b.Loop(); i++ {
		g.Choose(views[i%len(views)])
	}
}
