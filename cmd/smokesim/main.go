// Command smokesim simulates a fleet of smokestack instances in one
// process, without SSH, against a real three-primary Redis Cluster: each
// simulated instance is a real store client (its own origin) and a real
// lobby.Lobby, and each simulated player a real session's calls (make a
// room, sit, move, list, leave, come back). It runs phases one after
// another, reads Redis's INFO from every primary around each, and prints
// what each kind of work costs Redis per player per minute, beside the
// checks that the fleet behaves: rooms made on one instance listed on
// the others, a killed instance's seats free within the presence TTL,
// expiry done by one instance reading only rooms that are due, ratings
// landed, lists costing what a page costs. A failed check makes the exit
// status 1. docs/scaling.md has the runs and what they mean.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type config struct {
	clusterURL      string
	clusterPort     int
	clusterDir      string
	fsync           string
	instances       int
	players         int
	ttl             time.Duration
	movers          int
	idleGame        string
	think           time.Duration
	window          time.Duration
	baseline        time.Duration
	listInstances   int
	refreshes       int
	churn           int
	rated           int
	abandoned       int
	expiryInstances int
	fleetExpire     time.Duration
	killSample      int
	workers         int
	jsonOut         string
}

func main() {
	var c config
	fs := flag.NewFlagSet("smokesim", flag.ExitOnError)
	fs.StringVar(&c.clusterURL, "redis-cluster", "", "an already running Redis Cluster (`URL` as smokestack's --redis-cluster takes it); empty: start six redis-servers (three primaries, a replica each) for the run and stop them after")
	fs.IntVar(&c.clusterPort, "cluster-port", 0, "the first of six ports for the cluster started here (0: free ports)")
	fs.StringVar(&c.clusterDir, "cluster-dir", "", "where the cluster started here keeps its files (default: a temporary directory, removed after)")
	fs.StringVar(&c.fsync, "appendfsync", "everysec", "the started cluster's appendfsync (the deploy files use always; commands and bytes do not depend on it)")
	fs.IntVar(&c.instances, "instances", 20, "simulated instances")
	fs.IntVar(&c.players, "players", 100000, "simulated players, seated four to a room, each room's four on four instances")
	fs.DurationVar(&c.ttl, "ttl", 15*time.Second, "the instances' presence TTL (production: 15s); figures are reported at 15s")
	fs.IntVar(&c.movers, "movers", 250, "rooms that play in the moves phase (the sample whose moves are measured)")
	fs.StringVar(&c.idleGame, "idle-game", "tally", "the game of the rooms that do not move: tally, a small test game, keeps a hundred thousand loaded rooms within memory (a Fantastic Factories room held on four instances takes about 160 KB); \"\" for the default game")
	fs.DurationVar(&c.think, "think", 7500*time.Millisecond, "a moving room's time between moves, ±50% (7.5s: four players at 2 moves a minute each)")
	fs.DurationVar(&c.window, "window", 40*time.Second, "how long the idle and moves phases last")
	fs.DurationVar(&c.baseline, "baseline", 20*time.Second, "how long the instances run alone before anyone connects")
	fs.IntVar(&c.listInstances, "list-instances", 5, "instances whose lobby screens refresh in the lists phase")
	fs.IntVar(&c.refreshes, "refreshes", 3, "refreshes each of them makes, 3s apart (past the lists' 2s cache)")
	fs.IntVar(&c.churn, "churn", 500, "players who leave and come back through another instance")
	fs.IntVar(&c.rated, "rated", 20, "rooms of four new players that play a game of tally to its end and are rated")
	fs.IntVar(&c.abandoned, "abandoned", 200, "rooms made two hours ago and left, for the expiry phase to remove")
	fs.IntVar(&c.expiryInstances, "expiry-instances", 3, "instances started with expiry on for the expiry phase (the others run with it off)")
	fs.DurationVar(&c.fleetExpire, "fleet-expire", 0, "the fleet's own expiry (0: off, and only the expiry phase's instances expire rooms); with an expiry lease, give the fleet expiry, as an instance with it off may hold the lease")
	fs.IntVar(&c.killSample, "kill-sample", 50, "rooms of the killed instance watched from the others (0: no kill)")
	fs.IntVar(&c.workers, "workers", 32, "players connecting at once")
	fs.StringVar(&c.jsonOut, "json", "", "also write the phases, the units and the checks as JSON to `FILE`")
	_ = fs.Parse(os.Args[1:])
	if c.instances < 5 || c.players < 4*c.instances || c.movers > c.players/4 || c.ttl <= 0 {
		fmt.Fprintln(os.Stderr, "smokesim: want --instances 5 or more (a room's four players on four instances, a fifth to kill), --players at least 4 per instance, --movers at most --players/4, --ttl above 0")
		os.Exit(2)
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	s, err := run(ctx, c, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "smokesim:", err)
		os.Exit(1)
	}
	if !s.passed() {
		fmt.Fprintln(os.Stderr, "smokesim: CHECKS FAILED (above)")
		os.Exit(1)
	}
}

// run runs the simulation and writes its report to out.
func run(ctx context.Context, c config, out io.Writer) (*sim, error) {
	var cl *redisCluster
	var err error
	if c.clusterURL != "" {
		cl, err = existingCluster(c.clusterURL)
	} else {
		dir := c.clusterDir
		if dir == "" {
			if dir, err = os.MkdirTemp("", "smokesim-"); err != nil {
				return nil, err
			}
			defer os.RemoveAll(dir)
		}
		logf("starting a Redis Cluster (three primaries, a replica each, appendfsync %s) in %s", c.fsync, dir)
		cl, err = startCluster(ctx, dir, c.clusterPort, c.fsync)
	}
	if err != nil {
		return nil, err
	}
	defer cl.stop()
	primaries, err := cl.primaries(ctx)
	if err != nil {
		return nil, err
	}
	s := &sim{cfg: c, cluster: cl, meter: newMeter(primaries), begun: time.Now()}
	defer s.meter.close()
	defer s.closeAll()
	err = s.runPhases(ctx)
	s.report(out)
	if err != nil {
		return s, err
	}
	if c.jsonOut != "" {
		data, _ := json.MarshalIndent(s.result(), "", "  ")
		if err := os.WriteFile(c.jsonOut, data, 0o644); err != nil {
			return s, err
		}
	}
	return s, nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().UTC().Format("15:04:05")}, args...)...)
}
