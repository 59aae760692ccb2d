package bot

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/factories"
)

func TestNew(t *testing.T) {
	for _, name := range Names() {
		b, err := New(name, 1)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		if b.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, b.Name())
		}
	}
	if _, err := New("oracle", 1); err == nil {
		t.Error("New accepted an unknown bot")
	}
}

// playJSON plays a whole game through the JSON Ruleset, as a room does: each
// bot gets only the view JSON of its seat, so it cannot see the State. As
// in a room, seats may take moves back; bots never do.
func playJSON(t *testing.T, names []string, seed uint64) (moves []factories.Move) {
	t.Helper()
	rules := factories.Rules
	state, err := rules.New(len(names), nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]Bot, len(names))
	for i, name := range names {
		if bots[i], err = rulesBot(name, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
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
		raw, err := rules.View(state, seat)
		if err != nil {
			t.Fatal(err)
		}
		var v factories.View
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		m := bots[seat].Choose(v)
		if m.Kind == factories.Undo {
			t.Fatalf("seed %d: %s in seat %d took a move back", seed, names[seat], seat)
		}
		if slices.ContainsFunc(v.Legal, func(l factories.Move) bool { return l.Kind == factories.Undo }) {
			undoOffered.Add(1)
		}
		if !slices.ContainsFunc(v.Legal, func(l factories.Move) bool { return sameMove(l, m) }) {
			t.Fatalf("seed %d: %s in seat %d chose %+v, not among its %d legal moves", seed, names[seat], seat, m, len(v.Legal))
		}
		move, _ := json.Marshal(m)
		if state, _, err = rules.Apply(state, seat, move); err != nil {
			t.Fatalf("seed %d: %s in seat %d: %v", seed, names[seat], seat, err)
		}
		moves = append(moves, m)
	}
}

func sameMove(a, b factories.Move) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// undoOffered counts the views in which playJSON's bots could have taken
// a move back.
var undoOffered atomic.Int64

func TestBotsPlayLegalMovesFromViews(t *testing.T) {
	t.Cleanup(func() {
		if undoOffered.Load() == 0 {
			t.Error("no bot was ever offered undo: the test shows nothing about bots and undo")
		}
	})
	games := 6
	switch {
	case raceEnabled:
		games = 1 // what may race is the bots playing side by side
	case testing.Short():
		games = 2
	}
	for players := 1; players <= factories.MaxPlayers; players++ {
		for _, name := range Names() {
			if raceEnabled && strings.HasPrefix(name, "search") && players > 2 {
				continue // the search bots' seats make the race detector's games long
			}
			t.Run(fmt.Sprintf("%s-%dp", name, players), func(t *testing.T) {
				t.Parallel()
				names := make([]string, players)
				for i := range names {
					// Mix the bots so each meets the other's positions.
					names[i] = Names()[(i+indexOf(Names(), name))%len(Names())]
				}
				for g := range games {
					playJSON(t, names, uint64(1000*players+g))
				}
			})
		}
	}
}

// rulesBot is New, but with the search bots on a small budget: the tests
// that play whole games through the rules walk search's code paths in
// every size of game, and strength is measured elsewhere
// (TestSearchBeatsGreedy, docs/bots.md).
func rulesBot(name string, seed uint64) (Bot, error) {
	for _, l := range []level{searchLevel, quickLevel} {
		if l.name == name {
			small := rollouts{top: 2, budget: 3000, minWorlds: 1, maxWorlds: 2}
			l.roll, l.beam = small, 8
			l.solo = &level{name: name, roll: small, beam: 8, worlds: 2} // two worlds walk plans' mean
			l.crowd = nil                                                // 3 or more seats play small too
			return noUndo{newSearch(l)(seed)}, nil
		}
	}
	return New(name, seed)
}

func indexOf(names []string, name string) int { return slices.Index(names, name) }

func TestBotsAreDeterministic(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			names := []string{name, name, "random"}
			a, b := playJSON(t, names, 7), playJSON(t, names, 7)
			if !slices.EqualFunc(a, b, sameMove) {
				t.Errorf("two games with seed 7 differ")
			}
		})
	}
}

func TestRandomChoosesFromLegal(t *testing.T) {
	v := factories.View{Legal: []factories.Move{{Kind: factories.Pass}}}
	if m := newRandom(1).Choose(v); m.Kind != factories.Pass {
		t.Errorf("random chose %+v", m)
	}
	if m := newGreedy(1).Choose(factories.View{}); m.Kind != "" {
		t.Errorf("greedy with no legal moves chose %+v", m)
	}
}

func TestGreedyBeatsRandom(t *testing.T) {
	games := 200
	switch {
	case raceEnabled:
		games = 10 // what may race is Simulate's workers, as many in 10 games as in 200
	case testing.Short():
		games = 40
	}
	res, err := Simulate(t.Context(), Config{Bots: []string{"greedy", "random"}, Games: games, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	if rate := res.Seats[0].WinRate; rate < 0.9 {
		t.Errorf("greedy beat random in %.0f%% of %d games; want at least 90%%", 100*rate, games)
	}
}

func TestSimulateIsReproducible(t *testing.T) {
	cfg := Config{Bots: []string{"random", "random", "random"}, Games: 12, Seed: 3, Workers: 1}
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
	if a.Games != 12 || a.EndCauses.Goods+a.EndCauses.Buildings+a.EndCauses.Machine != 12 {
		t.Errorf("result = %+v", a)
	}
}

func TestSimulateSolo(t *testing.T) {
	res, err := Simulate(t.Context(), Config{Bots: []string{"random"}, Games: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Machine == nil || res.Difficulty != "medium" || res.Machine.Wins+res.Seats[0].Wins != 4 {
		t.Errorf("solo result = %+v", res)
	}
}

func TestSimulateRefusesBadConfigs(t *testing.T) {
	for _, cfg := range []Config{
		{Games: 1},
		{Bots: []string{"random", "nobody"}, Games: 1},
		{Bots: []string{"random", "random"}, Games: 0},
		{Bots: make([]string, 6), Games: 1},
	} {
		if _, err := Simulate(t.Context(), cfg); err == nil {
			t.Errorf("Simulate(%+v) succeeded", cfg)
		}
	}
}

func BenchmarkRandomPlayout(b *testing.B) {
	bots := []string{"random", "random", "random", "random"}
	for i := 0; b.Loop(); i++ {
		if _, err := play(bots, nil, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// The greedy benchmarks time one decision per op, cycling through the
// positions of a few greedy games, and report the distribution of a
// decision's time (p50, p99 and the slowest, in ms) besides the mean: a
// decision must stay within its budget in the slow positions too. They
// report it twice: wall time (-ms) and the CPU time of the deciding
// thread (-cpu-ms), which another process's load does not stretch, so
// the second is the figure to hold against a budget on a shared machine.
// Run them with -cpu 1 and -benchtime Nx for N of several times the
// positions.

// BenchmarkGreedyMove times greedy's decisions of every kind in 3-player
// games.
func BenchmarkGreedyMove(b *testing.B) { benchmarkGreedy(b, 3, "") }

// BenchmarkGreedyMarket times greedy's market decisions in 3-player
// games: each move applied and judged.
func BenchmarkGreedyMarket(b *testing.B) { benchmarkGreedy(b, 3, factories.MarketPhase) }

// BenchmarkGreedySoloMarket times greedy's solo market decisions, each
// of which plays the work phase out in a few guessed worlds (lookahead)
// and the best moves to the end of the game (rollout).
func BenchmarkGreedySoloMarket(b *testing.B) { benchmarkGreedy(b, 1, factories.MarketPhase) }

// BenchmarkGreedyWork times greedy's work-phase decisions in solo games,
// a beam search each.
func BenchmarkGreedyWork(b *testing.B) { benchmarkGreedy(b, 1, factories.WorkPhase) }

// benchmarkGreedy times greedy's moves in the positions of a few greedy
// games of players seats (only those of phase, if set), so it times
// typical positions rather than one.
func benchmarkGreedy(b *testing.B, players int, phase factories.Phase) {
	benchmarkBot(b, newGreedy(9), players, phase)
}

// benchmarkBot times bot's moves as benchmarkGreedy does greedy's.
func benchmarkBot(b *testing.B, bot Bot, players int, phase factories.Phase) {
	views := positions(players, phase)
	// A decision's CPU time is read from its thread, so the goroutine
	// stays on one: other processes' load then stretches only wall time.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wall := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		c0, measured := threadCPU()
		start := time.Now()
		bot.Choose(views[i%len(views)])
		wall = append(wall, time.Since(start))
		if c1, _ := threadCPU(); measured {
			cpu = append(cpu, c1-c0)
		}
		i++
	}
	report := func(took []time.Duration, unit string) {
		if len(took) == 0 {
			return
		}
		slices.Sort(took)
		ms := func(q float64) float64 {
			return float64(took[min(len(took)-1, int(q*float64(len(took))))]) / float64(time.Millisecond)
		}
		b.ReportMetric(ms(0.5), "p50-"+unit)
		b.ReportMetric(ms(0.99), "p99-"+unit)
		b.ReportMetric(ms(1), "max-"+unit)
		var sum time.Duration
		for _, d := range took {
			sum += d
		}
		// The mean, which speed-ups of the search itself move most.
		b.ReportMetric(float64(sum)/float64(len(took))/float64(time.Millisecond), "mean-"+unit)
	}
	report(wall, "ms")
	report(cpu, "cpu-ms")
	b.ReportMetric(float64(len(views)), "positions")
}

// positions are the positions of four greedy games of players seats in
// which the seat to act has a choice (only those of phase, if set).
func positions(players int, phase factories.Phase) []factories.View {
	var views []factories.View
	for seed := range uint64(4) {
		s, _ := factories.New(factories.Config{Players: players}, seed)
		bots := make([]Bot, players)
		for i := range bots {
			bots[i] = newGreedy(uint64(i + 1))
		}
		for s.Phase != factories.GameOver {
			seat := factories.StatusOf(s).Acting[0]
			v := factories.ViewOf(s, seat)
			if (phase == "" || v.Phase == phase) && len(v.Legal) > 1 {
				views = append(views, v)
			}
			s, _, _ = factories.Apply(s, seat, bots[seat].Choose(v))
		}
	}
	return views
}
