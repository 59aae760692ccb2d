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
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/smokestack/smokestack/engine/factories/bot"
)

// simulateCmd runs "smokestack simulate": headless games between bots,
// spread over every core, with a summary of who won and how.
func simulateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	players := fs.Int("players", 4, "number of seats, 1 to 5; 1 plays solo against The Machine")
	bots := fs.String("bots", "greedy,random", "comma-separated bots, one per seat, repeated to fill the seats ("+strings.Join(bot.Names(), ", ")+")")
	games := fs.Int("games", 100, "number of games to play")
	seed := fs.Uint64("seed", 1, "seed of the whole batch; the same seed replays the same games")
	difficulty := fs.String("difficulty", "medium", "The Machine's level in solo games: easy, medium, hard or insane")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: smokestack simulate [flags]\n\nPlays games between bots and reports win rates, scores and card use.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	names := strings.Split(*bots, ",")
	if *players < 1 {
		return errors.New("--players must be at least 1")
	}
	seats := make([]string, *players)
	for i := range seats {
		seats[i] = strings.TrimSpace(names[i%len(names)])
	}
	cfg := bot.Config{Bots: seats, Games: *games, Seed: *seed, Workers: *workers}
	if *players == 1 {
		cfg.Difficulty = *difficulty
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
	res, err := bot.Simulate(ctx, cfg)
	if err != nil {
		return err // main names the command
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return report(stdout, res)
}

func report(w io.Writer, res bot.Result) error {
	fmt.Fprintf(w, "%d games, %d players, seed %d", res.Games, res.Players, res.Seed)
	if res.Difficulty != "" {
		fmt.Fprintf(w, ", The Machine on %s", res.Difficulty)
	}
	fmt.Fprintf(w, "\naverage %.1f rounds, %.0f moves a game\n", res.AvgRounds, res.AvgMoves)
	fmt.Fprintf(w, "end triggered by goods %d, buildings %d, The Machine %d\n\n",
		res.EndCauses.Goods, res.EndCauses.Buildings, res.EndCauses.Machine)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "seat\tbot\twins\twin rate\tavg score\tgoods\tprestige\t")
	seats := res.Seats
	if res.Machine != nil {
		seats = append(seats, *res.Machine)
	}
	for _, s := range seats {
		seat := fmt.Sprint(s.Seat + 1)
		if s.Seat < 0 {
			seat = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f%%\t%.1f\t%.1f\t%.1f\t\n",
			seat, s.Bot, s.Wins, 100*s.WinRate, s.AvgScore, s.AvgGoods, s.AvgPrestige)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "blueprint\tbuilt/game\tactivated/game\t")
	n := float64(res.Games)
	for _, c := range res.Cards {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t\n", c.Name, float64(c.Built)/n, float64(c.Activated)/n)
	}
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "contractor\thired/game\t")
	for _, c := range res.Contractors {
		fmt.Fprintf(tw, "%s\t%.2f\t\n", c.Name, float64(c.Hired)/n)
	}
	return tw.Flush()
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
