package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/engine"
)

// simulateCmd runs "smokestack simulate": headless games between bots,
// spread over every core, with a summary of who won and how.
func simulateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	all, err := games.Load()
	if err != nil {
		return err
	}
	fs, f := newSimulateFlags(all, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	g, cfg, err := f.batch(fs, all)
	if err != nil {
		return err
	}
	if isTerminal(stderr) {
		bar := &progressBar{w: stderr}
		cfg.Progress = bar.update
		defer bar.clear()
	}
	// Bots try thousands of short-lived positions a second; the heap stays
	// small, so collecting less often buys speed for little memory. Only
	// when GOGC is unset: an operator's own setting wins.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	res, err := g.Simulate(ctx, cfg)
	if err != nil {
		return err // main names the command
	}
	if *f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return res.WriteReport(stdout)
}

// simulateFlags are the flags of `simulate`: its own, and every game's
// options.
type simulateFlags struct {
	name, bots              *string
	players, games, workers *int
	seed                    *uint64
	asJSON                  *bool
	options                 map[string]*string
}

func newSimulateFlags(all []games.Game, stderr io.Writer) (*flag.FlagSet, simulateFlags) {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := simulateFlags{
		name:    fs.String("game", all[0].Name(), "the game to play: "+strings.Join(games.Names(all), " or ")),
		players: fs.Int("players", 0, "number of seats (default: 4, or the most the game has)"),
		bots:    fs.String("bots", "", "comma-separated bots, one per seat, repeated to fill the seats (default: every bot of the game)"),
		games:   fs.Int("games", 100, "number of games to play"),
		seed:    fs.Uint64("seed", 1, "seed of the whole batch; the same seed replays the same games"),
		workers: fs.Int("workers", 0, "games played at once (0: one per core)"),
		asJSON:  fs.Bool("json", false, "print the result as one JSON object"),
		options: map[string]*string{},
	}
	for _, g := range all {
		for _, o := range g.Rules.Options() {
			if f.options[o.Name] == nil {
				f.options[o.Name] = fs.String(o.Name, "", fmt.Sprintf("%s: %s (%s)", g.Rules.Title(), o.About, strings.Join(o.Choices, ", ")))
			}
		}
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: smokestack simulate [flags]\n\nPlays games between bots and reports win rates and scores.")
		fs.PrintDefaults()
		for _, g := range all {
			lo, hi := g.Rules.Seats()
			fmt.Fprintf(stderr, "\n%s (--game %s): %d to %d seats, bots %s\n", g.Rules.Title(), g.Name(), lo, hi, strings.Join(g.Bots.Names, ", "))
		}
	}
	return fs, f
}

// batch is the game and the batch the parsed flags of fs ask for, checked.
func (f simulateFlags) batch(fs *flag.FlagSet, all []games.Game) (games.Game, engine.Batch, error) {
	i := slices.IndexFunc(all, func(g games.Game) bool { return g.Name() == *f.name })
	if i < 0 {
		return games.Game{}, engine.Batch{}, fmt.Errorf("--game %q: choose %s", *f.name, strings.Join(games.Names(all), " or "))
	}
	g := all[i]
	lo, hi := g.Rules.Seats()
	set := map[string]string{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = fl.Value.String() })
	players, bots := *f.players, *f.bots
	if _, ok := set["players"]; !ok {
		players = max(lo, min(4, hi))
	}
	if bots == "" {
		bots = strings.Join(g.Bots.Names, ",")
	}
	if players < lo || players > hi {
		return g, engine.Batch{}, fmt.Errorf("--players %d: a game of %s has %d to %d seats", players, g.Rules.Title(), lo, hi)
	}
	given := map[string]string{}
	for name := range f.options {
		if v, ok := set[name]; ok {
			given[name] = v
		}
	}
	raw, _ := json.Marshal(given)
	values, err := engine.ReadOptions(g.Rules.Options(), players, raw)
	if err != nil {
		return g, engine.Batch{}, err
	}
	names := strings.Split(bots, ",")
	seats := make([]string, players)
	for i := range seats {
		seats[i] = strings.TrimSpace(names[i%len(names)])
		if !g.HasBot(seats[i]) {
			return g, engine.Batch{}, fmt.Errorf("--bots: %s has no bot %q: choose %s", g.Rules.Title(), seats[i], strings.Join(g.Bots.Names, " or "))
		}
	}
	if *f.games < 1 {
		return g, engine.Batch{}, errors.New("--games must be at least 1")
	}
	return g, engine.Batch{Bots: seats, Options: values, Games: *f.games, Seed: *f.seed, Workers: *f.workers}, nil
}

// isTerminal reports whether w is a character device, such as a terminal,
// so the progress bar stays out of logs and pipes.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progressBar draws a one-line bar, redrawn in place with a carriage
// return, at most once per percent.
type progressBar struct {
	w    io.Writer
	mu   sync.Mutex
	last int
}

const barWidth = 40

func (b *progressBar) update(done, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	pct := 100 * done / total
	if pct == b.last && done != total {
		return
	}
	b.last = pct
	full := barWidth * done / total
	fmt.Fprintf(b.w, "\r[%s%s] %3d%% %d/%d games", strings.Repeat("#", full), strings.Repeat(".", barWidth-full), pct, done, total)
}

func (b *progressBar) clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", barWidth+30))
}
