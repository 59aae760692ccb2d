package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
)

// errFlags reports bad flags, which the flag package has already printed.
var errFlags = errors.New("bad flags")

// config is everything smokeload can be told.
type config struct {
	// targets are instances A and B to drive; none means start our own.
	targets []string
	// redis is the Redis our own instances use; empty starts redis-server.
	redis       string
	moves       int
	duration    time.Duration
	rooms       int
	seed        uint64
	game        string // --game; empty for the registry's first
	bot         string // --bot; empty for the game's strongest
	settle      time.Duration
	timeout     time.Duration
	width       int
	height      int
	allowRemote bool
	json        bool
	verbose     bool

	// Capacity mode (capacity.go):
	sessions    int
	perAddr     int
	think       time.Duration
	rate        float64 // --rate: moves a minute a player; 0 paces by --think
	connectConc int
	target      string
	metricsURL  string
	movesGiven  bool   // --moves was given; capacity mode otherwise runs for --duration
	thinkGiven  bool   // --think was given
	screen      string // "game" or "lobby"
	idle        time.Duration
	profiles    string
	cpuProfile  string
	// clientCPUProfile is this process's own CPU profile over the play:
	// the players' SSH clients.
	clientCPUProfile string
	// clientProcs is GOMAXPROCS for this process in capacity mode (0:
	// Go's default).
	clientProcs int
	// clientsIdle puts the clients in the kernel's idle class, so the
	// server has the cores first (yieldCores).
	clientsIdle bool
	// label names a run's profiles; serverEnv is added to our own server
	// process's environment.
	label     string
	serverEnv []string
	frames    []string // --frames: compare these ways of drawing
	repeat    int

	// Cost mode (cost.go): --target's instances, the Redis nodes read,
	// the instances' process IDs, and the layout and phases.
	capTargets    []string
	redisInfo     []string
	pids          []int
	watchers      int
	playerTargets int
	baseline      time.Duration
	model         string
}

const usageHead = `usage: smokeload [flags]

Measures how long a move takes to reach the other players' screens: from
the moment a player's move is sent over SSH to instance A until the first
bytes of the redraw arrive at a terminal watching on instance B (cross
instance), and at one watching on A itself (same instance), with the
play protocol's updates and the mover's ok alongside. See
docs/operations.md, "Measuring latency".

With --sessions N it measures capacity instead: N players on game screens
(SSH sessions with PTYs) across --rooms rooms, pressing keys and playing
moves; see docs/operations.md, "Measuring capacity".

By default it starts everything itself: a redis-server from PATH on a free
loopback port, and two smokestack instances in this process sharing it.
With --targets it drives instances you already run instead.

`

// parseFlags reads the command line.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	c := config{}
	fs := flag.NewFlagSet("smokeload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	targets := fs.String("targets", "", "drive these two running instances, `A,B` (host:port each), instead of starting our own; moves are sent on A")
	fs.StringVar(&c.redis, "redis", "", "for our own instances, use this Redis `URL` instead of starting redis-server")
	fs.IntVar(&c.moves, "moves", 200, "stop after measuring this many moves, over all rooms")
	fs.DurationVar(&c.duration, "duration", 2*time.Minute, "stop after this long at the latest, whatever --moves says")
	fs.IntVar(&c.rooms, "rooms", 1, "rooms played at once, each with its own players and watchers (1 to 50; with --sessions, up to --sessions)")
	fs.IntVar(&c.sessions, "sessions", 0, "capacity mode: this many players, each an SSH session with a PTY on the game screen of one of --rooms rooms")
	fs.IntVar(&c.perAddr, "per-addr", 10, "capacity mode: players per loopback source address (127.0.1.2 on), as people come from many addresses")
	fs.DurationVar(&c.think, "think", 2*time.Second, "capacity mode: a room's players act one after another, one action per think time (±50%)")
	fs.Float64Var(&c.rate, "rate", 0, "capacity mode: pace the rooms so the server sees this many `moves` a minute a player (an action every interval ±50%, worked out from the share of actions that play a move), instead of --think")
	fs.IntVar(&c.connectConc, "connect-concurrency", 64, "capacity mode: connections opened at once while seating the players")
	fs.StringVar(&c.target, "target", "", "capacity mode: drive this running instance (host:port) instead of starting a server process; cost mode: these instances, `A,B,…`")
	redisInfo := fs.String("redis-info", "", "cost mode: read INFO (commands, bytes) from these Redis `URLs`, comma-separated (a cluster's every node; replicas are skipped), around each phase: baseline, connect, idle, moves; needs --sessions and --target")
	pids := fs.String("pids", "", "cost mode: the --target instances' process `IDs`, in order, for each one's CPU from /proc/PID/stat")
	fs.IntVar(&c.watchers, "watchers", 0, "cost mode: each room's game is watched from this many other instances (the next ones after its players')")
	fs.IntVar(&c.playerTargets, "player-targets", 0, "cost mode: rooms' players sit on the first `K` instances of --target, round robin (0: all); the rest only watch")
	fs.DurationVar(&c.baseline, "baseline", 20*time.Second, "cost mode: before anyone connects, measure the instances alone this long")
	fs.StringVar(&c.model, "model", "", "cost mode: cost runs' JSON `FILES`, comma-separated, whose units predict this run's Redis work and CPU, shown beside what was measured; runs whose moves were heard by different numbers of instances give what each one more adds")
	fs.StringVar(&c.screen, "screen", "game", "capacity mode: the screen the players sit on: game (seated in --rooms rooms, playing) or lobby (grouped as they would be seated, pressing keys in the lobby)")
	fs.DurationVar(&c.idle, "idle", 20*time.Second, "capacity mode: once everyone is seated, wait this long with nobody pressing keys, for the server's CPU per idle session; memory is read after it")
	fs.StringVar(&c.profiles, "profiles", "", "capacity mode: once everyone is seated and --idle is over, save the server's heap and goroutine profiles in this `DIR` (heap-SCREEN.pb.gz, goroutine-SCREEN.pb.gz, goroutine-SCREEN.txt); our own server then samples its heap every 16 KiB, which costs memory and CPU, so take the figures from runs without it; with --target it must serve them (serve --pprof)")
	fs.StringVar(&c.cpuProfile, "cpu-profile", "", "capacity mode: write the server's CPU profile over the play (--duration) to this `FILE`; with --target it must serve it (serve --pprof)")
	fs.StringVar(&c.clientCPUProfile, "client-cpu-profile", "", "capacity mode: write the players' CPU profile over the play (--duration), smokeload's own process, to this `FILE`")
	fs.IntVar(&c.clientProcs, "client-procs", 0, "capacity mode: run the players' SSH clients, smokeload's own process, on at most this many cores at once (its GOMAXPROCS; 0: all of them), to leave the rest to the server they measure")
	fs.BoolVar(&c.clientsIdle, "clients-idle", false, "capacity mode (Linux): run the players' SSH clients, smokeload's own process, only on cores the server leaves (the kernel's idle class), so the server has the machine's cores first, as it would with its players on other machines; the server's own histograms are then its figures, and the clients' time to their frames includes their wait for a core")
	frames := fs.String("frames", "", "capacity mode: how our own server draws terminals, change (on every change, the default) or tick (Bubble Tea's renderer at 120 fps); several, comma-separated, run one after another and are reported side by side")
	fs.IntVar(&c.repeat, "repeat", 1, "capacity mode with --frames: run each way this many times, alternating")
	fs.StringVar(&c.metricsURL, "metrics", "", "capacity mode with --target: the instance's metrics URL (http://host:port/metrics), for its memory, goroutines and CPU")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the first game; each further game adds one")
	fs.StringVar(&c.game, "game", "", "the game played, by its name ("+strings.Join(games.Names(games.All()), " or ")+"); the server's default when empty")
	fs.StringVar(&c.bot, "bot", "", "how the players choose their moves: one of the game's bots ("+botHelp()+"); the game's strongest when empty")
	fs.DurationVar(&c.settle, "settle", 50*time.Millisecond, "before each move, wait until every watching terminal has been quiet this long, so the next bytes are the move's redraw")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "give up when a move has not reached every watcher after this long")
	fs.IntVar(&c.width, "width", 120, "terminal width of the watching screens")
	fs.IntVar(&c.height, "height", 40, "terminal height of the watching screens")
	fs.BoolVar(&c.allowRemote, "allow-remote", false, "allow --targets and --redis that are not loopback addresses")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON instead of a table")
	fs.BoolVar(&c.verbose, "verbose", false, "log progress, and our own instances' logs, to stderr")
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, errFlags
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "smokeload: unexpected argument %q\n", fs.Arg(0))
		return c, errFlags
	}
	fs.Visit(func(f *flag.Flag) {
		c.movesGiven = c.movesGiven || f.Name == "moves"
		c.thinkGiven = c.thinkGiven || f.Name == "think"
	})
	for _, f := range strings.Split(*frames, ",") {
		if f = strings.TrimSpace(f); f != "" {
			c.frames = append(c.frames, f)
		}
	}
	c.targets = splitList(*targets)
	c.capTargets, c.redisInfo = splitList(c.target), splitList(*redisInfo)
	for _, p := range splitList(*pids) {
		pid, err := strconv.Atoi(p)
		if err != nil || pid <= 0 {
			return c, fmt.Errorf("--pids: %q is not a process ID", p)
		}
		c.pids = append(c.pids, pid)
	}
	if c.playerTargets == 0 {
		c.playerTargets = len(c.capTargets)
	}
	return c, c.check()
}

// pace is how the players are paced, for the report: the think time,
// or --rate.
func (c config) pace() string {
	if c.rate > 0 {
		return fmt.Sprintf("rate %g", c.rate)
	}
	return c.think.String()
}

// splitList reads a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// check refuses settings that make no sense, and addresses off this
// machine unless --allow-remote says so.
func (c config) check() error {
	switch {
	case len(c.targets) != 0 && len(c.targets) != 2:
		return fmt.Errorf("--targets wants two instances, A,B; got %d", len(c.targets))
	case len(c.targets) != 0 && c.redis != "":
		return errors.New("--redis is for our own instances; with --targets the instances have their own Redis")
	case c.moves < 1:
		return errors.New("--moves must be at least 1")
	case c.duration <= 0 || c.timeout <= 0 || c.settle < 0:
		return errors.New("--duration and --timeout must be positive, --settle not negative")
	case c.sessions < 0:
		return errors.New("--sessions cannot be negative")
	case c.sessions > 0 && (c.rooms < 1 || c.rooms > c.sessions):
		return errors.New("--rooms must be 1 to --sessions")
	case c.sessions > 0 && (c.sessions+c.rooms-1)/c.rooms > 5:
		return fmt.Errorf("--sessions %d over --rooms %d is more than 5 players a room", c.sessions, c.rooms)
	case c.sessions > 0 && (c.perAddr < 1 || c.think <= 0 || c.connectConc < 1 || c.idle < 0):
		return errors.New("--per-addr, --think and --connect-concurrency must be positive, --idle not negative")
	case c.clientProcs < 0:
		return errors.New("--client-procs cannot be negative")
	case c.clientsIdle && (c.sessions == 0 || len(c.redisInfo) > 0 || len(c.frames) > 0):
		// A server started after the clients yield would inherit their class.
		return errors.New("--clients-idle is for capacity mode: it needs --sessions, and no --redis-info or --frames")
	case c.rate < 0 || c.rate > 0 && (c.sessions == 0 || c.screen != "game"):
		return errors.New("--rate paces players at tables: it needs --sessions on the game screen, and is positive")
	case c.rate > 0 && c.thinkGiven:
		return errors.New("--rate and --think both set the pace: give one")
	case len(c.frames) > 0 && (c.sessions == 0 || c.target != ""):
		return errors.New("--frames chooses how our own server draws: it needs --sessions, and no --target")
	case slices.ContainsFunc(c.frames, func(f string) bool { return f != "change" && f != "tick" }):
		return fmt.Errorf("--frames %s: each is change or tick", strings.Join(c.frames, ","))
	case len(c.capTargets) > 1 && len(c.redisInfo) == 0:
		return errors.New("--target names one instance, unless --redis-info measures several (cost mode)")
	case len(c.redisInfo) > 0 && c.checkCost() != nil:
		return c.checkCost()
	case c.repeat < 1:
		return errors.New("--repeat must be at least 1")
	case c.screen != "game" && c.screen != "lobby":
		return fmt.Errorf("--screen %q: choose game or lobby", c.screen)
	case c.sessions == 0 && (c.rooms < 1 || c.rooms > 50):
		return errors.New("--rooms must be 1 to 50")
	case c.width < 80 || c.height < 24:
		return errors.New("--width and --height must be at least 80x24, the game screen's minimum")
	}
	g, err := gameNamed(c.game)
	if err != nil {
		return fmt.Errorf("--game: %w", err)
	}
	if c.bot != "" && g.Bots.New == nil {
		return fmt.Errorf("--bot: %s has no bots", g.Name())
	}
	if c.bot != "" {
		if _, err := g.Bots.New(c.bot, 0); err != nil {
			return fmt.Errorf("--bot: %w", err)
		}
	}
	if c.allowRemote {
		return nil
	}
	for _, t := range append(c.targets, c.capTargets...) {
		host, _, err := net.SplitHostPort(t)
		if err != nil {
			return fmt.Errorf("--targets %q: %w", t, err)
		}
		if err := loopback(host); err != nil {
			return fmt.Errorf("--targets %s: %w (add --allow-remote to measure another machine)", t, err)
		}
	}
	for _, r := range append(splitList(c.redis), c.redisInfo...) {
		u, err := url.Parse(r)
		if err != nil {
			return fmt.Errorf("--redis: %w", err)
		}
		if err := loopback(u.Hostname()); err != nil {
			return fmt.Errorf("--redis %s: %w (add --allow-remote to use another machine's Redis)", u.Redacted(), err)
		}
	}
	return nil
}

// checkCost refuses cost mode's settings that make no sense.
func (c config) checkCost() error {
	n := len(c.capTargets)
	switch {
	case c.sessions == 0 || n == 0:
		return errors.New("--redis-info measures players on running instances: give --sessions and --target A,B,…")
	case c.screen != "game" || len(c.frames) > 0:
		return errors.New("--redis-info seats players at tables: no --screen lobby or --frames")
	case len(c.pids) > 0 && len(c.pids) != n:
		return fmt.Errorf("--pids names %d processes for %d instances in --target", len(c.pids), n)
	case c.playerTargets < 1 || c.playerTargets > n:
		return fmt.Errorf("--player-targets must be 1 to %d, the instances in --target", n)
	case c.watchers < 0 || c.watchers >= n:
		return fmt.Errorf("--watchers must be 0 to %d: each watches from another instance than its room's players", n-1)
	case c.baseline < 0:
		return errors.New("--baseline cannot be negative")
	}
	return nil
}

// loopback fails unless host is, or resolves only to, loopback addresses.
func loopback(host string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return err
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return fmt.Errorf("%s is not a loopback address", ip.IP)
		}
	}
	return nil
}
