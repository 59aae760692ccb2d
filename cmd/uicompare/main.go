// Command uicompare measures the frames of a Bubble Tea screen served
// over SSH, for each way we could run the screens, one after another in
// one run on the same machine: Bubble Tea v1 at its default 60 fps and
// at 120 fps, and Bubble Tea v2 at both. See README.md beside this file
// and docs/performance.md, "Frames: which Bubble Tea line".
//
//	go run . --json out.json          # every variant, the full run (about 4 minutes)
//	go run . --variants v1-60,v2-60 --sessions 200 --moves 100
//
// Each variant's server runs in a process of its own (this binary, as
// `uicompare serve VARIANT`), so its CPU time and resident set are its own;
// the driver speaks real SSH to it with PTYs, as players do.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// config is everything the driver can be told.
type config struct {
	variants []variant
	rooms    int
	moves    int
	sessions int
	keys     int
	settle   time.Duration
	window   time.Duration
	pace     time.Duration
	timeout  time.Duration
	out      string
	json     string
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "serve" {
		if err := serve(args[1], stdin, stdout); err != nil {
			fmt.Fprintf(stderr, "uicompare serve: %v\n", err)
			return 1
		}
		return 0
	}
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "uicompare: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	rep := report{Config: map[string]string{
		"rooms": fmt.Sprint(c.rooms), "moves": fmt.Sprint(c.moves), "sessions": fmt.Sprint(c.sessions),
		"keys": fmt.Sprint(c.keys), "settle": c.settle.String(), "window": c.window.String(), "pace": c.pace.String(),
		"terminal": fmt.Sprintf("xterm-256color %dx%d", termWidth, termHeight),
	}}
	for _, v := range c.variants {
		res, err := measure(ctx, c, v, log)
		if err != nil {
			fmt.Fprintf(stderr, "uicompare: %v\n", err)
			return 1
		}
		rep.Results = append(rep.Results, res)
	}
	if err := rep.writeTables(stdout); err != nil {
		fmt.Fprintf(stderr, "uicompare: %v\n", err)
		return 1
	}
	if c.json != "" {
		f, err := os.Create(c.json)
		if err == nil {
			err = errors.Join(rep.writeJSON(f), f.Close())
		}
		if err != nil {
			fmt.Fprintf(stderr, "uicompare: %v\n", err)
			return 1
		}
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("uicompare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = v.Name
	}
	only := fs.String("variants", strings.Join(names, ","), "the variants to measure, in this order")
	fs.IntVar(&c.rooms, "rooms", 4, "rooms of four table sessions playing measured moves at once")
	fs.IntVar(&c.moves, "moves", 500, "measured moves over those rooms")
	fs.IntVar(&c.sessions, "sessions", 1000, "sessions connected for the memory and idle CPU figures (a multiple of 4)")
	fs.IntVar(&c.keys, "keys", 500, "keys typed, one at a time, on the lobby's counters")
	fs.DurationVar(&c.settle, "settle", 30*time.Millisecond, "before each key, wait until the terminals concerned have been quiet this long")
	fs.DurationVar(&c.window, "window", 10*time.Second, "how long CPU time is measured, idle and at play")
	fs.DurationVar(&c.pace, "pace", 2*time.Second, "in the game phase, each room moves once per this long")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Second, "give up on a key or move that has not been drawn after this long")
	fs.StringVar(&c.out, "out", os.TempDir(), "`directory` for the heap profiles")
	fs.StringVar(&c.json, "json", "", "also write the results as JSON to this `file`")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, name := range strings.Split(*only, ",") {
		v, err := variantNamed(strings.TrimSpace(name))
		if err != nil {
			return c, fmt.Errorf("--variants: %w", err)
		}
		c.variants = append(c.variants, v)
	}
	switch {
	case c.rooms < 1 || c.moves < 1 || c.keys < 1:
		return c, errors.New("--rooms, --moves and --keys must be at least 1")
	case c.sessions < 4 || c.sessions%4 != 0:
		return c, errors.New("--sessions must be a positive multiple of 4")
	case c.settle < 0 || c.window <= 0 || c.pace <= 0 || c.timeout <= 0:
		return c, errors.New("--window, --pace and --timeout must be positive, --settle not negative")
	}
	return c, nil
}
