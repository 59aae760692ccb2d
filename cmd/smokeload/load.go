package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/internal/redistest"
)

// run runs smokeload and returns the process's exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFlags):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "smokeload: %v\n", err)
		return 2
	}
	log := slog.New(slog.DiscardHandler)
	if c.verbose {
		log = slog.New(slog.NewTextHandler(stderr, nil))
	}
	if c.sessions > 0 && c.clientProcs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.clientProcs))
	}
	var out printable
	switch {
	case len(c.frames) > 0:
		out, err = compare(ctx, c, log)
	case c.sessions > 0 && len(c.redisInfo) > 0:
		out, err = cost(ctx, c, log)
	case c.sessions > 0:
		out, err = capacity(ctx, c, log)
	default:
		var rep report
		rep, err = load(ctx, c, log)
		if err == nil && rep.Moves == 0 {
			err = errors.New("stopped before any move was measured")
		}
		if rep.Moves > 0 {
			out = rep
		}
	}
	if out != nil {
		write := out.writeTable
		if c.json {
			write = out.writeJSON
		}
		if werr := write(stdout); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "smokeload: %v\n", err)
		return 1
	}
	return 0
}

// printable is a result smokeload prints: a table, or JSON with --json.
type printable interface {
	writeTable(io.Writer) error
	writeJSON(io.Writer) error
}

// load runs the measurement: --rooms games at once, one after another in
// each room, until --moves moves are measured, --duration has passed or
// ctx ends. A failure stops every room; the report then covers the moves
// measured before it.
func load(ctx context.Context, c config, log *slog.Logger) (report, error) {
	instances, redis := c.targets, ""
	if len(instances) == 0 {
		cl, err := startCluster(ctx, c, log)
		if errors.Is(err, redistest.ErrNoRedis) {
			return report{}, fmt.Errorf("%w, or give --redis URL, or --targets A,B to drive running instances", err)
		}
		if err != nil {
			return report{}, fmt.Errorf("start redis and two instances: %w", err)
		}
		defer cl.Close()
		instances, redis = cl.addrs, cl.redis
	}
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	rec := newRecorder()
	var moves budget
	moves.left.Store(int64(c.moves))
	var games atomic.Uint64
	start := time.Now()
	errs := make(chan error, c.rooms)
	for i := range c.rooms {
		go func() {
			for moves.left.Load() > 0 && ctx.Err() == nil {
				seed := c.seed + games.Add(1) - 1
				g := &game{cfg: c, a: instances[0], b: instances[1], seed: seed,
					log: log.With("worker", i), jitter: rand.New(rand.NewPCG(seed, 0x5eed))}
				if err := playGame(ctx, g, &moves, rec); err != nil && ctx.Err() == nil {
					cancel()
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	var err error
	for range c.rooms {
		err = errors.Join(err, <-errs)
	}
	return rec.report(c, instances, redis, time.Since(start)), err
}
