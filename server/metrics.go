package server

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/smokestack/smokestack/internal/ratelog"
	"github.com/smokestack/smokestack/lobby"
)

// Metrics are what an instance reports to Prometheus. It is a
// lobby.Observer too: pass it as the lobby's Config.Observer.
type Metrics struct {
	reg            *prometheus.Registry
	sessions       *prometheus.GaugeVec
	refusals       *prometheus.CounterVec
	moves          prometheus.Counter
	moveCommit     prometheus.Histogram
	keyToBroadcast prometheus.Histogram
	moveToFrame    prometheus.Histogram
	storeErrors    *prometheus.CounterVec
	botThink       prometheus.Histogram
	windowSizes    prometheus.Counter
	frames         prometheus.Counter
	connWrites     prometheus.Counter
	store          string
	// log, once a server is set up, logs refusals once per burst.
	log atomic.Pointer[ratelog.Logger]
	// suspects, once a server is set up, hears who the lobby refused.
	suspects atomic.Pointer[suspects]
	// input, once a server is set up, is the input it holds unread.
	input atomic.Pointer[budget]
}

// latencyBuckets span a fast local commit to a struggling remote store.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// frameBuckets are finer about the 10 ms a frame is to reach the others
// in (issue 42).
var frameBuckets = []float64{.001, .002, .003, .005, .0075, .01, .015, .02, .03, .05, .1, .25, .5, 1, 2.5, 5}

// NewMetrics registers the instance's metrics, and the Go runtime's and
// the process's, in a registry of their own. store names the room store
// ("bolt", "memory", "redis") in the store errors metric.
func NewMetrics(store string) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), store: store}
	f := func(c prometheus.Collector) { m.reg.MustRegister(c) }
	m.sessions = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "smokestack_sessions",
		Help: "Open SSH sessions by kind: terminal (the game screens), play (JSON lines), command (the other exec commands)."}, []string{"kind"})
	m.refusals = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "smokestack_refusals_total",
		Help: "Connections, sessions, moves and input refused or cut short past a limit, by reason."}, []string{"reason"})
	m.moves = prometheus.NewCounter(prometheus.CounterOpts{Name: "smokestack_moves_committed_total",
		Help: "Moves stored, by players and bots."})
	m.moveCommit = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "smokestack_move_commit_seconds",
		Help: "Time the store took to append one move.", Buckets: latencyBuckets})
	m.keyToBroadcast = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "smokestack_key_to_broadcast_seconds",
		Help: "Time from a player's move reaching the lobby to its update being pushed to every session here.", Buckets: latencyBuckets})
	m.moveToFrame = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "smokestack_move_to_others_frame_seconds",
		Help: "Time from a move being stored to the frame that shows it written to each other player's and spectator's terminal here.", Buckets: frameBuckets})
	m.storeErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "smokestack_store_errors_total",
		Help: "Errors from the room store (Redis or bbolt): rooms, seat presence, failed-lookup counts, bans and the readiness ping."}, []string{"store"})
	m.botThink = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "smokestack_bot_think_seconds",
		Help: "Time a bot took to choose a move.", Buckets: latencyBuckets})
	m.windowSizes = prometheus.NewCounter(prometheus.CounterOpts{Name: "smokestack_window_sizes_total",
		Help: "Window sizes handed to terminals' programs, each drawn as a frame: a client's storm of sizes is handed on as its newest, ten a second at most."})
	f(m.windowSizes)
	m.frames = prometheus.NewCounter(prometheus.CounterOpts{Name: "smokestack_frames_total",
		Help: "Frames written to terminals: each what changed on a screen, written at once."})
	m.connWrites = prometheus.NewCounter(prometheus.CounterOpts{Name: "smokestack_conn_writes_total",
		Help: "Writes to SSH connections, a system call each: a frame is one, however many packets it takes."})
	f(m.frames)
	f(m.connWrites)
	f(m.sessions)
	f(m.refusals)
	f(m.moves)
	f(m.moveCommit)
	f(m.keyToBroadcast)
	f(m.moveToFrame)
	f(m.storeErrors)
	f(m.botThink)
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "smokestack_input_held_bytes",
		Help: "Input clients sent that their sessions have not read yet, held by the server (bounded by --input-budget)."},
		func() float64 {
			if b := m.input.Load(); b != nil {
				return float64(b.n.Load())
			}
			return 0
		}))
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, k := range []string{"terminal", "play", "command"} {
		m.sessions.WithLabelValues(k)
	}
	for r := range refusalLines {
		m.refusals.WithLabelValues(r)
	}
	for _, r := range quietReasons {
		m.refusals.WithLabelValues(r)
	}
	m.storeErrors.WithLabelValues(store)
	return m
}

// MoveStored implements lobby.Observer.
func (m *Metrics) MoveStored(d time.Duration) {
	m.moves.Inc()
	m.moveCommit.Observe(d.Seconds())
}

// MoveShown implements lobby.Observer.
func (m *Metrics) MoveShown(d time.Duration) { m.keyToBroadcast.Observe(d.Seconds()) }

// StoreFailed implements lobby.Observer.
func (m *Metrics) StoreFailed(error) { m.storeErrors.WithLabelValues(m.store).Inc() }

// BotThought implements lobby.Observer.
func (m *Metrics) BotThought(d time.Duration) { m.botThink.Observe(d.Seconds()) }

// Refused implements lobby.Observer.
func (m *Metrics) Refused(reason string, who lobby.Player) {
	if s := m.suspects.Load(); s != nil {
		s.note(reason, cmp.Or(who.Key, who.ID), who.Addr, time.Now())
	}
	m.refuse(reason, "key", cmp.Or(who.Key, who.ID))
}

// refuse counts a refusal and logs it, once per burst of its reason.
func (m *Metrics) refuse(reason string, attrs ...any) { m.refuseAs(reason, reason, attrs...) }

// refuseAs counts a refusal and logs it, once per burst of kind: a
// reason's refusals that differ in what was done with them are counted
// apart in the log.
func (m *Metrics) refuseAs(kind, reason string, attrs ...any) {
	m.refusals.WithLabelValues(reason).Inc()
	if l := m.log.Load(); l != nil {
		l.Log(slog.LevelWarn, kind, "refused", append([]any{"reason", reason}, attrs...)...)
	}
}

var _ lobby.Observer = (*Metrics)(nil)

// quietReasons are the refusals without a line in refusalLines: the
// client is told in words of the moment, or not at all. They are counted
// from zero like the rest, so a dashboard sees them before the first.
var quietReasons = []string{
	"handshake_timeout", "no_session", "input_rate", "line_too_long", "inactivity", "identity",
	"input_buffer", "conn_input_buffer", "addr_input_buffer", "input_budget",
	// The SSH layer's (transport.go):
	"env", "signal", "request_size", "request_rate", "stderr_input", "idle_channel",
	// The lobby's (lobby.LimitError.Reason):
	"rooms_per_hour", "open_rooms", "addr_rooms_per_hour", "addr_open_rooms", "move_rate", "lookup_backoff", "lookup_limit", "profiles_per_hour",
}

// roomGauge reports the rooms a lobby has loaded by state, read when
// Prometheus scrapes. Counting the rooms in the store instead would read
// every room's metadata (a full scan of Redis) on every scrape.
type roomGauge struct {
	lobby *lobby.Lobby
	desc  *prometheus.Desc
}

func (g roomGauge) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g roomGauge) Collect(ch chan<- prometheus.Metric) {
	s := g.lobby.Stats()
	for state, n := range map[string]int{"waiting": s.Waiting, "playing": s.Playing, "over": s.Over} {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, float64(n), state)
	}
}

// watchRooms adds the rooms of lb to the metrics, and whether it holds
// the expiry lease.
func (m *Metrics) watchRooms(lb *lobby.Lobby) {
	m.reg.MustRegister(roomGauge{lobby: lb, desc: prometheus.NewDesc("smokestack_rooms",
		"Rooms this instance holds in memory (opened here since it started and not expired), by state: waiting for players, playing, over. Rooms only in the store are not counted; a room open on two instances is counted by both.", []string{"state"}, nil)})
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "smokestack_expiry_lease_held",
		Help: "1 while this instance holds the expiry lease and so runs the expiry passes for every instance sharing its store (always, with a store of its own), else 0."},
		func() float64 {
			if lb.HoldsExpiry() {
				return 1
			}
			return 0
		}))
}

// Handler serves /metrics (Prometheus text), /healthz (the process is up)
// and /readyz (the room store answers).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.cfg.Lobby.Ping(ctx); err != nil {
			s.metrics.StoreFailed(err)
			http.Error(w, "room store unreachable: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}
