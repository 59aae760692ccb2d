package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/hostkeys"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/lobby/store/mem"
	redisstore "github.com/smokestack/smokestack/lobby/store/redis"
	"github.com/smokestack/smokestack/server"
)

// errFlags reports bad flags, which the flag package has already printed.
var errFlags = errors.New("bad flags")

// serveConfig is everything `smokestack serve` can be told.
type serveConfig struct {
	listen      string
	publicAddr  string
	dataDir     string
	hostKey     string
	store       string
	redis       string
	botDelay    time.Duration
	expire      time.Duration
	profileExp  time.Duration
	idleTimeout time.Duration
	logLevel    string
	logFormat   string
	metrics     string // the old name of metricsListen
	proxyProto  bool
	// proxyTrusted lists the balancers allowed to send PROXY headers.
	proxyTrusted  string
	metricsListen string
	// pprof adds Go's profiles to the metrics listener.
	pprof         bool
	operators     string
	shutdownGrace time.Duration
	// redisReplicas is --redis-replicas: -1 leaves it to the store.
	redisReplicas int
	limits        server.Limits
	lobbyLimits   lobby.Limits

	// redisCluster names a Redis Cluster's nodes (--redis-cluster).
	redisCluster string
}

// envFlag ties a flag to the environment variable that sets it when the
// flag is not given.
type envFlag struct{ flag, env string }

var serveEnv = []envFlag{
	{"listen", "SMOKESTACK_LISTEN"},
	{"public-addr", "SMOKESTACK_PUBLIC_ADDR"},
	{"data-dir", "SMOKESTACK_DATA_DIR"},
	{"host-key", "SMOKESTACK_HOST_KEY"},
	{"store", "SMOKESTACK_STORE"},
	{"redis", "SMOKESTACK_REDIS"},
	{"redis-cluster", "SMOKESTACK_REDIS_CLUSTER"},
	{"redis-replicas", "SMOKESTACK_REDIS_REPLICAS"},
	{"proxy-protocol", "SMOKESTACK_PROXY_PROTOCOL"},
	{"proxy-trusted", "SMOKESTACK_PROXY_TRUSTED"},
	{"bot-delay", "SMOKESTACK_BOT_DELAY"},
	{"expire", "SMOKESTACK_EXPIRE"},
	{"profile-expire", "SMOKESTACK_PROFILE_EXPIRE"},
	{"idle-timeout", "SMOKESTACK_IDLE_TIMEOUT"},
	{"handshake-timeout", "SMOKESTACK_HANDSHAKE_TIMEOUT"},
	{"max-conns-per-addr", "SMOKESTACK_MAX_CONNS_PER_ADDR"},
	{"max-conns-per-key", "SMOKESTACK_MAX_CONNS_PER_KEY"},
	{"conn-rate", "SMOKESTACK_CONN_RATE"},
	{"max-sessions", "SMOKESTACK_MAX_SESSIONS"},
	{"max-sessions-per-conn", "SMOKESTACK_MAX_SESSIONS_PER_CONN"},
	{"session-rate", "SMOKESTACK_SESSION_RATE"},
	{"max-refused-sessions", "SMOKESTACK_MAX_REFUSED_SESSIONS"},
	{"max-rooms-per-hour", "SMOKESTACK_MAX_ROOMS_PER_HOUR"},
	{"max-open-rooms", "SMOKESTACK_MAX_OPEN_ROOMS"},
	{"max-rooms-per-hour-per-addr", "SMOKESTACK_MAX_ROOMS_PER_HOUR_PER_ADDR"},
	{"max-open-rooms-per-addr", "SMOKESTACK_MAX_OPEN_ROOMS_PER_ADDR"},
	{"input-rate", "SMOKESTACK_INPUT_RATE"},
	{"input-buffer", "SMOKESTACK_INPUT_BUFFER"},
	{"conn-input-buffer", "SMOKESTACK_CONN_INPUT_BUFFER"},
	{"addr-input-buffer", "SMOKESTACK_ADDR_INPUT_BUFFER"},
	{"request-rate", "SMOKESTACK_REQUEST_RATE"},
	{"input-budget", "SMOKESTACK_INPUT_BUDGET"},
	{"move-rate", "SMOKESTACK_MOVE_RATE"},
	{"lookup-misses", "SMOKESTACK_LOOKUP_MISSES"},
	{"lookup-window", "SMOKESTACK_LOOKUP_WINDOW"},
	{"lookup-backoff", "SMOKESTACK_LOOKUP_BACKOFF"},
	{"chat-rate", "SMOKESTACK_CHAT_RATE"},
	{"max-new-players-per-hour", "SMOKESTACK_MAX_NEW_PLAYERS_PER_HOUR"},
	{"inactivity-timeout", "SMOKESTACK_INACTIVITY_TIMEOUT"},
	{"max-line", "SMOKESTACK_MAX_LINE"},
	{"operators", "SMOKESTACK_OPERATORS"},
	{"shutdown-grace", "SMOKESTACK_SHUTDOWN_GRACE"},
	{"log-level", "SMOKESTACK_LOG_LEVEL"},
	{"log-format", "SMOKESTACK_LOG_FORMAT"},
	{"metrics-listen", "SMOKESTACK_METRICS_LISTEN"},
	{"metrics", "SMOKESTACK_METRICS"},
	{"pprof", "SMOKESTACK_PPROF"},
}

// parseServe reads flags, then the environment for flags not given.
func parseServe(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	var c serveConfig
	fs := c.flags(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, err
		}
		return c, errFlags
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "smokestack serve: unexpected argument %q\n", fs.Arg(0))
		return c, errFlags
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for _, e := range serveEnv {
		v := getenv(e.env)
		if given[e.flag] || v == "" {
			continue
		}
		if err := fs.Set(e.flag, v); err != nil {
			return c, fmt.Errorf("%s=%q: %w", e.env, v, err)
		}
	}
	return c, c.check(given, getenv)
}

// flags is the flag set of `serve`, each flag setting its part of c.
func (c *serveConfig) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.listen, "listen", ":2222", "address the SSH server listens on")
	fs.StringVar(&c.publicAddr, "public-addr", "", "where players reach the server, `host:port` (a bare host means port 22), for the ssh commands it prints: invites, help (default: this machine's name and the --listen port)")
	fs.StringVar(&c.dataDir, "data-dir", "", "directory for the host key and the room store (default "+defaultDataDirHelp+")")
	fs.StringVar(&c.hostKey, "host-key", "", "use this existing host key file instead of the data directory's, e.g. one key shared by several instances")
	fs.StringVar(&c.store, "store", "bolt", "where rooms live: bolt (rooms.db in the data directory, durable) or memory (lost on exit)")
	fs.StringVar(&c.redis, "redis", "", "Redis URL for a room store shared by several instances (redis://host:6379/0), or of the sentinels of a Sentinel-managed primary (redis://sentinel1:26379?master_name=NAME&addr=sentinel2:26379)")
	fs.IntVar(&c.redisReplicas, "redis-replicas", -1, "with --redis or --redis-cluster, how many replicas must hold a move before it counts; -1: 1 under Sentinel or on a cluster, 0 on a single node")
	fs.StringVar(&c.redisCluster, "redis-cluster", "", "a Redis Cluster for a room store shared by several instances, some of its nodes as `URL` (redis://NODE1:6379?addr=NODE2:6379&addr=NODE3:6379)")
	fs.BoolVar(&c.proxyProto, "proxy-protocol", false, "expect a PROXY protocol v1/v2 header on every connection, as a load balancer sends; connections without one are refused")
	fs.StringVar(&c.proxyTrusted, "proxy-trusted", "", "with --proxy-protocol, the balancers' addresses or CIDR ranges, comma-separated; connections from anywhere else are dropped (empty: any source, so firewall the port)")
	fs.DurationVar(&c.botDelay, "bot-delay", 800*time.Millisecond, "pause before a bot moves while people are at the table")
	fs.DurationVar(&c.expire, "expire", 24*time.Hour, "remove unfinished rooms untouched for this long (0 keeps them forever)")
	fs.DurationVar(&c.profileExp, "profile-expire", 30*24*time.Hour, "forget profiles made longer ago than this that hold no seat in any room and no rating, freeing their names (0 keeps them forever)")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", time.Hour, "close connections with no traffic either way for this long (0: never)")
	c.limitFlags(fs)
	fs.StringVar(&c.operators, "operators", "", "authorized_keys `FILE` of the operators' keys, who may run `admin` (empty: nobody)")
	fs.DurationVar(&c.shutdownGrace, "shutdown-grace", 10*time.Second, "on SIGTERM, how long sessions have to close after being told before they are cut")
	fs.StringVar(&c.logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&c.logFormat, "log-format", "text", "text or json")
	fs.StringVar(&c.metricsListen, "metrics-listen", "", "serve Prometheus metrics at http://ADDR/metrics, and /healthz and /readyz (off when empty)")
	fs.StringVar(&c.metrics, "metrics", "", "the old name of --metrics-listen (it serves Prometheus text at /metrics now, not expvar)")
	fs.BoolVar(&c.pprof, "pprof", false, "with --metrics-listen, serve Go's profiles there too, at /debug/pprof/ (heap, goroutines, CPU), for measuring; keep that address private")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: smokestack serve [flags]\n\nRuns the SSH server: players connect with `ssh -p 2222 HOST`.\nEvery flag can also be set by its environment variable; a flag given on\nthe command line wins.\n\n")
		for _, e := range serveEnv {
			f := fs.Lookup(e.flag)
			name, use := flag.UnquoteUsage(f)
			fmt.Fprintf(stderr, "  --%s %s\n    \t%s\n    \tenv %s", f.Name, name, use, e.env)
			if f.DefValue != "" && f.DefValue != "0s" && f.DefValue != "false" {
				fmt.Fprintf(stderr, ", default %s", f.DefValue)
			}
			fmt.Fprintln(stderr)
		}
	}
	return fs
}

// limitFlags adds the flags of the server's and the lobby's limits to fs.
func (c *serveConfig) limitFlags(fs *flag.FlagSet) {
	d := server.DefaultLimits()
	dl := lobby.DefaultLimits()
	l := &c.limits
	fs.DurationVar(&l.HandshakeTimeout, "handshake-timeout", d.HandshakeTimeout, "drop a connection whose SSH handshake (key exchange and login) has not finished after this long, or that opens no session this long after it (0: never)")
	fs.IntVar(&l.ConnsPerAddr, "max-conns-per-addr", d.ConnsPerAddr, "open connections allowed from one address, or one IPv6 /64 (0: no limit)")
	fs.IntVar(&l.ConnsPerKey, "max-conns-per-key", d.ConnsPerKey, "open connections allowed with one SSH key (0: no limit)")
	fs.IntVar(&l.ConnRate, "conn-rate", d.ConnRate, "new connections allowed from one address per minute, a token bucket holding a minute's worth (0: no limit)")
	fs.IntVar(&l.Sessions, "max-sessions", d.Sessions, "open sessions allowed on this instance (0: no limit)")
	fs.IntVar(&l.SessionsPerConn, "max-sessions-per-conn", d.SessionsPerConn, "sessions (SSH channels) open at once allowed on one connection (0: no limit)")
	fs.IntVar(&l.SessionRate, "session-rate", d.SessionRate, "new sessions allowed on one connection per minute, a token bucket holding a minute's worth (0: no limit)")
	fs.IntVar(&l.RefusedSessions, "max-refused-sessions", d.RefusedSessions, "sessions refused on one connection (past --max-sessions-per-conn or --session-rate) before the connection is closed (0: no limit)")
	fs.IntVar(&c.lobbyLimits.RoomsPerHour, "max-rooms-per-hour", dl.RoomsPerHour, "rooms one key may create per hour (0: no limit)")
	fs.IntVar(&c.lobbyLimits.OpenRooms, "max-open-rooms", dl.OpenRooms, "unfinished rooms one key may hold (0: no limit)")
	fs.IntVar(&c.lobbyLimits.AddrRoomsPerHour, "max-rooms-per-hour-per-addr", dl.AddrRoomsPerHour, "rooms the players of one address (IPv6: /64) may create per hour together (0: no limit)")
	fs.IntVar(&c.lobbyLimits.AddrOpenRooms, "max-open-rooms-per-addr", dl.AddrOpenRooms, "unfinished rooms the players of one address (IPv6: /64) may hold together (0: no limit)")
	fs.IntVar(&l.InputRate, "input-rate", d.InputRate, "bytes per second read from one session's input; faster input waits (0: no limit)")
	fs.IntVar(&l.InputBuffer, "input-buffer", d.InputBuffer, "bytes of one session's input the server holds before the session reads them; more closes the connection (0: no limit)")
	fs.IntVar(&l.ConnInputBuffer, "conn-input-buffer", d.ConnInputBuffer, "bytes of input the server holds for all the sessions of one connection together; more closes the connection (0: no limit)")
	fs.IntVar(&l.AddrInputBuffer, "addr-input-buffer", d.AddrInputBuffer, "bytes of input the server holds for all the sessions of one address (IPv6: /64) together; more closes the connection it came on (0: no limit)")
	fs.IntVar(&l.RequestRate, "request-rate", d.RequestRate, "SSH channel requests (env, pty, window-change, exec…) a second one connection may send, in bursts of four seconds' worth; faster closes it (0: no limit)")
	fs.IntVar(&l.InputBudget, "input-budget", d.InputBudget, "bytes of input the server holds for all its sessions together; input past it closes the connection it came on (0: no limit)")
	fs.Float64Var(&c.lobbyLimits.MovesPerSecond, "move-rate", dl.MovesPerSecond, "moves per second played for one seat, by all its sessions together: bursts of twice as many pass, faster ones wait, and ones that would wait over a second are refused (0: no limit)")
	fs.IntVar(&c.lobbyLimits.LookupMisses, "lookup-misses", dl.LookupMisses, "failed room lookups (no such room, a private room without its invite) allowed per key and per address in a --lookup-window; past it the connection ends and only the player's own rooms open until the window ends (0: no limit)")
	fs.DurationVar(&c.lobbyLimits.LookupWindow, "lookup-window", dl.LookupWindow, "the window --lookup-misses counts in, from a key's or an address's first miss")
	fs.DurationVar(&c.lobbyLimits.LookupBackoff, "lookup-backoff", dl.LookupBackoff, "past a quarter of --lookup-misses, each miss waits this long, twice as long as the one before, up to 8s (0: no wait)")
	fs.IntVar(&c.lobbyLimits.ChatPerMinute, "chat-rate", dl.ChatPerMinute, "chat messages one key may send per minute, in rooms and the lobby together, after a burst of 5; faster ones are refused (0: no limit)")
	fs.IntVar(&c.lobbyLimits.ProfilesPerHour, "max-new-players-per-hour", dl.ProfilesPerHour, "profiles made for new keys from one address per hour, counted as each first sits down or chooses a name, not as it connects; only while the per-address limits are on (0: no limit)")
	fs.DurationVar(&l.Inactivity, "inactivity-timeout", d.Inactivity, "close a terminal session after this long without input, warning a minute before (0: never)")
	fs.IntVar(&l.MaxLine, "max-line", d.MaxLine, "longest line `play` reads, in bytes; a longer one ends the session (0: 16 MiB)")
}

// check refuses settings that do not fit together, and fills in what
// follows from the others (the data directory, the public address). given
// holds the flags given on the command line.
func (c *serveConfig) check(given map[string]bool, getenv func(string) string) error {
	switch c.store {
	case "bolt", "memory":
	default:
		return fmt.Errorf("--store %q: choose bolt or memory (or give --redis)", c.store)
	}
	// Rooms live in one place: a --store asked for alongside a Redis URL
	// (say SMOKESTACK_REDIS left in the environment) is a mistake to name,
	// not one to settle silently.
	if c.redis != "" && c.redisCluster != "" {
		return errors.New("--redis and --redis-cluster both given: rooms live in one Redis or one Redis Cluster; drop one (check SMOKESTACK_REDIS and SMOKESTACK_REDIS_CLUSTER)")
	}
	if c.redisCluster != "" && (given["store"] || getenv("SMOKESTACK_STORE") != "") {
		return fmt.Errorf("--store %s and --redis-cluster both given: rooms live either in Redis or in the %s store; drop one (check SMOKESTACK_STORE and SMOKESTACK_REDIS_CLUSTER)", c.store, c.store)
	}
	if c.redis != "" && (given["store"] || getenv("SMOKESTACK_STORE") != "") {
		return fmt.Errorf("--store %s and --redis both given: rooms live either in Redis or in the %s store; drop one (check SMOKESTACK_STORE and SMOKESTACK_REDIS)", c.store, c.store)
	}
	if c.redisReplicas < -1 || c.redisReplicas >= 0 && c.redis == "" && c.redisCluster == "" {
		return fmt.Errorf("--redis-replicas %d: give a number of replicas, 0 or more, with --redis or --redis-cluster", c.redisReplicas)
	}
	if c.botDelay < 0 || c.expire < 0 || c.profileExp < 0 || c.idleTimeout < 0 || c.shutdownGrace < 0 {
		return errors.New("--bot-delay, --expire, --profile-expire, --idle-timeout and --shutdown-grace cannot be negative")
	}
	if l, ll := c.limits, c.lobbyLimits; l.HandshakeTimeout < 0 || l.ConnsPerAddr < 0 || l.ConnsPerKey < 0 || l.ConnRate < 0 ||
		l.Sessions < 0 || l.SessionsPerConn < 0 || l.SessionRate < 0 || l.RefusedSessions < 0 || l.InputRate < 0 ||
		l.InputBuffer < 0 || l.ConnInputBuffer < 0 || l.AddrInputBuffer < 0 || l.RequestRate < 0 || l.InputBudget < 0 || l.Inactivity < 0 || l.MaxLine < 0 ||
		ll.RoomsPerHour < 0 || ll.OpenRooms < 0 || ll.AddrRoomsPerHour < 0 || ll.AddrOpenRooms < 0 || ll.MovesPerSecond < 0 || ll.LookupMisses < 0 || ll.LookupWindow < 0 || ll.LookupBackoff < 0 || ll.ChatPerMinute < 0 ||
		ll.ProfilesPerHour < 0 {
		return errors.New("limits cannot be negative: 0 turns one off")
	}
	if c.lobbyLimits.LookupMisses > 0 && c.lobbyLimits.LookupWindow <= 0 {
		return errors.New("--lookup-misses needs a --lookup-window to count in")
	}
	if c.metrics != "" {
		if c.metricsListen != "" && c.metricsListen != c.metrics {
			return errors.New("--metrics is the old name of --metrics-listen: give only --metrics-listen")
		}
		c.metricsListen = c.metrics
	}
	if c.pprof && c.metricsListen == "" {
		return errors.New("--pprof serves the profiles on the metrics listener: give --metrics-listen too")
	}
	if c.publicAddr != "" {
		addr, err := server.CheckPublicAddr(c.publicAddr)
		if err != nil {
			return fmt.Errorf("--public-addr %w", err)
		}
		c.publicAddr = addr
	}
	if c.dataDir == "" {
		dir, err := defaultDataDir(getenv)
		if err != nil {
			return fmt.Errorf("no --data-dir given and %w", err)
		}
		c.dataDir = dir
	}
	return nil
}

const defaultDataDirHelp = "$XDG_STATE_HOME/smokestack, else the user config dir's smokestack, e.g. ~/.config/smokestack"

func defaultDataDir(getenv func(string) string) (string, error) {
	if state := getenv("XDG_STATE_HOME"); state != "" {
		return filepath.Join(state, "smokestack"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no default data directory: %w", err)
	}
	return filepath.Join(dir, "smokestack"), nil
}

func newLogger(c serveConfig, w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, fmt.Errorf("--log-level %q: choose debug, info, warn or error", c.logLevel)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch c.logFormat {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: choose text or json", c.logFormat)
}

// serveCmd runs the server until ctx ends (SIGINT or SIGTERM), then shuts
// down: open sessions are told the server is restarting, and the store is
// closed after the last of them.
func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseServe(args, os.Getenv, stderr)
	if err != nil {
		return err
	}
	gs, err := games.Load()
	if err != nil {
		return err
	}
	log, err := newLogger(c, stderr)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.dataDir, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	key, err := loadHostKey(c)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, c, log)
	if err != nil {
		return err
	}
	defer st.Close()

	ops, err := loadOperators(c)
	if err != nil {
		return err
	}
	metrics := server.NewMetrics(storeName(c))
	lb, stopLobby := runLobby(c, st, gs, log, metrics)
	// With Redis, Run withdraws this instance's seat claims on its way
	// out, so the store (closed by an earlier defer) stays open until Run
	// has returned, or for as long as shutting down may take.
	defer func() {
		if !stopLobby(c.shutdownGrace + 5*time.Second) {
			log.Warn("the lobby did not stop in time; closing the store under it")
		}
	}()

	srv, err := server.New(server.Config{
		Addr: c.listen, HostKey: key.Signer, Lobby: lb, Screens: games.Screens(gs),
		Logger: log.With("part", "ssh"), IdleTimeout: c.idleTimeout,
		Limits: c.limits, Operators: ops, Metrics: metrics, PublicAddr: c.publicAddr,
	})
	if err != nil {
		return err
	}
	l, err := listen(c)
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	log.Info("listening", "addr", l.Addr().String(), "data_dir", c.dataDir, "store", storeName(c),
		"proxy_protocol", c.proxyProto, "host_key", key.Path, "host_key_fingerprint", key.Fingerprint(),
		"operators", len(ops))

	if c.metricsListen != "" {
		stop, err := serveMetrics(c, srv, log)
		if err != nil {
			srv.Close()
			return err
		}
		defer stop()
	}

	select {
	case err := <-served:
		return fmt.Errorf("ssh server stopped: %w", err)
	case <-ctx.Done():
	}
	shutdown(c, srv, log)
	<-served
	stopLobby(5 * time.Second)
	log.Info("stopped")
	return nil
}

// shutdown tells open sessions the server is going and gives them
// --shutdown-grace to close before it cuts them.
func shutdown(c serveConfig, srv *server.Server, log *slog.Logger) {
	log.Info("shutting down: telling open sessions, waiting for them to close", "grace", c.shutdownGrace)
	ctx, cancel := context.WithTimeout(context.Background(), c.shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		log.Warn("sessions still open at shutdown; closing them", "err", err)
		srv.Close()
	}
}

// runLobby starts the lobby of gs on st. stop ends its Run and waits
// for it to return, for up to wait; it reports whether it did.
func runLobby(c serveConfig, st store.Store, gs []games.Game, log *slog.Logger, metrics *server.Metrics) (lb *lobby.Lobby, stop func(wait time.Duration) bool) {
	lb = lobby.New(lobby.Config{
		Store:         st,
		Games:         games.Lobby(gs),
		BotDelay:      c.botDelay,
		Expire:        c.expire,
		ProfileExpire: c.profileExp,
		Logger:        log.With("part", "lobby"),
		Limits:        c.lobbyLimits,
		Observer:      metrics,
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		lb.Run(ctx)
	}()
	return lb, func(wait time.Duration) bool {
		cancel()
		select {
		case <-done:
			return true
		case <-time.After(wait):
			return false
		}
	}
}

// listen opens the SSH listener, behind the PROXY protocol when asked.
func listen(c serveConfig) (net.Listener, error) {
	l, err := net.Listen("tcp", c.listen)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", c.listen, err)
	}
	if c.proxyProto {
		if l, err = server.ProxyListener(l, splitList(c.proxyTrusted), c.limits.HandshakeTimeout); err != nil {
			return nil, fmt.Errorf("--proxy-trusted: %w", err)
		}
	}
	return l, nil
}

// serveMetrics serves srv's metrics (and the profiles, with --pprof) on
// --metrics-listen until stop is called.
func serveMetrics(c serveConfig, srv *server.Server, log *slog.Logger) (stop func() error, err error) {
	if c.metrics != "" {
		log.Warn("--metrics (SMOKESTACK_METRICS) is now --metrics-listen (SMOKESTACK_METRICS_LISTEN), and serves Prometheus text at /metrics instead of expvar at /debug/vars")
	}
	ml, err := net.Listen("tcp", c.metricsListen)
	if err != nil {
		return nil, fmt.Errorf("--metrics-listen: %w", err)
	}
	h := srv.Handler()
	if c.pprof {
		h = server.WithProfiles(h)
		log.Info("profiles", "url", "http://"+ml.Addr().String()+"/debug/pprof/")
	}
	ms := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go ms.Serve(ml)
	log.Info("metrics", "url", "http://"+ml.Addr().String()+"/metrics")
	return ms.Close, nil
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// loadOperators reads the operators' keys, none without --operators.
func loadOperators(c serveConfig) (server.Operators, error) {
	if c.operators == "" {
		return nil, nil
	}
	return server.LoadOperators(c.operators)
}

func loadHostKey(c serveConfig) (hostkeys.Key, error) {
	if c.hostKey != "" {
		return hostkeys.Load(c.hostKey)
	}
	return hostkeys.Ensure(filepath.Join(c.dataDir, hostkeys.FileName))
}

func storeName(c serveConfig) string {
	if c.redis != "" || c.redisCluster != "" {
		return "redis"
	}
	return c.store
}

// openStore opens the room store the flags ask for. go-redis's own lines
// go to log, once per burst.
func openStore(ctx context.Context, c serveConfig, log *slog.Logger) (store.Store, error) {
	if c.redis != "" {
		redisstore.LogTo(log)
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return redisstore.OpenWith(ctx, c.redis, redisstore.Options{Replicas: c.redisReplicas})
	}
	if c.redisCluster != "" {
		redisstore.LogTo(log)
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return redisstore.OpenClusterWith(ctx, c.redisCluster, redisstore.Options{Replicas: c.redisReplicas})
	}
	if c.store == "memory" {
		return mem.New(), nil
	}
	return bolt.Open(filepath.Join(c.dataDir, "rooms.db"))
}
