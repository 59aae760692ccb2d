package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Capacity mode: --sessions N real SSH sessions with PTYs, each a player
// on the game screen (`join CODE`) of one of --rooms rooms, pressing keys
// that move through the move menu and play the move it lands on, or with
// --screen lobby sitting in the lobby and pressing keys there. It
// measures what those players feel and what the server pays for them.
//
// Each room acts one player at a time, so a redraw can be told apart, one
// whose screen says they may act (turns.go): the player opens and closes
// the key help (key to own frame: the first bytes of its own redraw),
// moves through the menu, then presses enter; if the others' screens then
// redraw, a move was played (move to others' frame).
// In the lobby the players are grouped as they would be seated, and each
// group takes turns the same way, opening and closing the key help.
// Players connect from loopback addresses of their own, --per-addr to
// each, so the server's per-address limits stay at their defaults.

// capResult is what one capacity run measured.
type capResult struct {
	Mode       string  `json:"mode"` // "own" (a server process started here) or "target"
	Server     string  `json:"server"`
	Frames     string  `json:"frames,omitempty"` // how the server drew, when --frames chose
	Screen     string  `json:"screen"`           // "game" or "lobby"
	Sessions   int     `json:"sessions"`
	Rooms      int     `json:"rooms"`
	Connected  int     `json:"connected"`
	Seconds    float64 `json:"seconds"`
	Think      string  `json:"think"`
	Connect    stats   `json:"connect"`
	KeyToOwn   stats   `json:"key_to_own_frame"`
	MoveToRest stats   `json:"move_to_others_frame"`
	// ServerMoveToRest is the same from the server's side, from its
	// smokestack_move_to_others_frame_seconds over the play: a move
	// stored to each other screen's frame written (p50/p90/p99 from its
	// buckets; no max, no mean).
	ServerMoveToRest stats `json:"server_move_to_others_frame"`
	// ServerCommit is the store's time to append a move over the play
	// (smokestack_move_commit_seconds), from its buckets too.
	ServerCommit stats `json:"server_move_commit"`
	Moves        int   `json:"moves"`
	// KeyMisses counts keys whose redraw did not come within keyWindow:
	// key-to-own-frame samples censored there, counted in KeyToOwn as
	// keyWindow (so its figures at keyWindow mean "at least").
	KeyMisses int `json:"key_misses"`
	// MoveCensored counts others' screens that did not show a move played
	// within moveWindow: move-to-others'-frame samples censored there,
	// counted in MoveToRest as moveWindow.
	MoveCensored int `json:"move_censored"`
	// EntersUnseen counts enters after which the mover's own screen drew
	// nothing within enterWindow: most played nothing and changed nothing
	// on screen; one that played a move that slowly is not measured.
	EntersUnseen int `json:"enters_unseen"`
	// Refused counts the sessions refused, by what the server said.
	Refused map[string]int `json:"refused,omitempty"`
	// Skipped counts players who never sat down because their room's
	// first player, who creates it, was refused.
	Skipped int `json:"skipped"`
	// Errors counts the other failures, by message.
	Errors map[string]int `json:"errors,omitempty"`
	// From the server's own metrics, when it serves them: per session,
	// and in all.
	serverCost
	// Freed says memory was compared after a collection that returned
	// freed memory to the OS (our own server process); else it is the
	// resident set as it was.
	Freed        bool    `json:"freed"`
	CPUPerMoveMs float64 `json:"cpu_per_move_ms,omitempty"`
	// CPUPerMoveLessIdleMs is the same less what the sessions cost
	// idle (IdleCPU) over the play: what the moves and their keys
	// cost.
	CPUPerMoveLessIdleMs float64 `json:"cpu_per_move_less_idle_ms,omitempty"`
	// MovesPerPlayerMinute is the rate the players played at.
	MovesPerPlayerMinute float64 `json:"moves_per_player_minute,omitempty"`
	// FramesPerMove and WritesPerFrame are the server's frames written
	// over the play per move, and its writes to connections (system
	// calls) per frame.
	FramesPerMove  float64 `json:"frames_per_move,omitempty"`
	WritesPerFrame float64 `json:"writes_per_frame,omitempty"`
	// Pace is the moves a minute a player meant and played, and whether
	// the players fell behind.
	Pace paceReport `json:"pace"`
	// ClientCPUCores is what smokeload's own process, the players' SSH
	// clients, used over the play, in cores (1: one core busy throughout),
	// and ClientCPUPerMoveMs the same per move the server committed: the
	// share of the machine the load itself takes.
	ClientCPUCores float64 `json:"client_cpu_cores"`
	ClientProcs    int     `json:"client_procs"` // the clients' GOMAXPROCS (--client-procs)
	// ClientsIdle says the clients ran in the kernel's idle class
	// (--clients-idle): the server had the cores first.
	ClientsIdle        bool    `json:"clients_idle,omitempty"`
	ClientCPUPerMoveMs float64 `json:"client_cpu_per_move_ms,omitempty"`
	// ServerPID is our own server process, for a profiler or perf.
	ServerPID      int     `json:"server_pid,omitempty"`
	ServerMoves    int     `json:"server_moves,omitempty"`
	ServerRefusals int     `json:"server_refusals,omitempty"`
	ServerRSSMB    float64 `json:"server_rss_mb,omitempty"`
	Panics         int     `json:"panics"`
	ServerLogLines int     `json:"server_log_lines,omitempty"`
	// Profiles is where the heap and goroutine profiles taken with
	// everyone seated were written (--profiles).
	Profiles string `json:"profiles,omitempty"`
}

// capPlayer is one person at one screen.
type capPlayer struct {
	name   string
	client *gossh.Client
	screen *screen
	// room and at are a watcher's room and instance, in cost mode.
	room, at int
}

// capacity runs capacity mode: a server (its own, or --target), the
// players seated, their idle cost, their play, and the figures.
func capacity(ctx context.Context, c config, log *slog.Logger) (capResult, error) {
	res := capResult{Mode: "target", Screen: c.screen, Sessions: c.sessions, Rooms: c.rooms, Think: c.pace(),
		Refused: map[string]int{}, Errors: map[string]int{}}
	server, metricsURL, child, err := capServer(ctx, c)
	if err != nil {
		return res, err
	}
	if child != nil {
		defer child.stop() // when the run fails; stopping twice is harmless
		res.Mode = "own"
		res.ServerPID = child.cmd.Process.Pid
		log.Info("server process", "pid", res.ServerPID)
	}
	res.Server, res.Freed = server, child != nil
	res.ClientProcs = runtime.GOMAXPROCS(0)
	if c.clientsIdle {
		if err := keepIdle(ctx); err != nil {
			return res, fmt.Errorf("--clients-idle: %w", err)
		}
		res.ClientsIdle = true
	}
	pr := newProbe(metricsURL, child != nil)
	before, _ := pr.read(true)

	rec := newRecorder()
	start := time.Now()
	rooms, _ := seatPlayers(ctx, c, func(int) string { return server }, rec, &res, log)
	log.Info("players connected", "connected", res.Connected, "took", time.Since(start).Round(time.Millisecond))
	defer func() { closeRooms(rooms) }()
	seated, idled, held, err := sitIdle(ctx, c, pr, &res)
	if err != nil {
		return res, err
	}
	played, out, err := playRooms(ctx, c, rooms, rec, pr)
	if err != nil {
		return res, err
	}
	closeRooms(rooms)
	rooms = nil
	if child != nil {
		child.stop()
		res.Panics, res.ServerLogLines = child.panics(), child.lines()
	}

	res.Seconds = roundTenth(time.Since(start).Seconds())
	res.figures(rec, before, seated, idled, held, played)
	res.ClientCPUCores = roundHundredth(out.use.cores())
	if res.ServerMoves > 0 {
		res.ClientCPUPerMoveMs = roundTenth(out.use.cpu.Seconds() * 1000 / float64(res.ServerMoves))
	}
	res.Pace = out.pacer.pace(out.use.wall, out.rooms, out.players, res.ServerMoves, rec.samples["late"])
	if res.Pace.Behind {
		log.Warn("the players fell behind the pace meant", "meant", res.Pace.IntendedMovesPerPlayerMinute, "played", res.Pace.MovesPerPlayerMinute)
	}
	return res, nil
}

// capServer is the server a capacity run measures: --target, or a server
// process of its own, started here (child; nil with --target).
func capServer(ctx context.Context, c config) (server, metricsURL string, child *serverChild, err error) {
	if c.target != "" {
		return c.target, c.metricsURL, nil, nil
	}
	env := slices.Concat(c.serverEnv, []string{gameEnv + "=" + c.game, sessionsEnv + "=" + strconv.Itoa(c.sessions)})
	if c.profiles != "" {
		env = append(env, profileRateEnv+"=1")
	}
	if child, err = startServerChild(ctx, env); err != nil {
		return "", "", nil, fmt.Errorf("start a server: %w", err)
	}
	return child.addr, "http://" + child.metrics + "/metrics", child, nil
}

// seatPlayers connects the players, --connect-conc at a time, room by
// room (the first of each room creates it), each room's to the instance
// serverOf names for it, and returns them by room with the rooms' codes
// ("" for a room never created); the refused and failed are counted in
// res.
func seatPlayers(ctx context.Context, c config, serverOf func(room int) string, rec *recorder, res *capResult, log *slog.Logger) ([][]*capPlayer, []string) {
	var mu sync.Mutex
	count := func(m map[string]int, msg string) {
		mu.Lock()
		m[msg]++
		mu.Unlock()
	}
	perRoom := (c.sessions + c.rooms - 1) / c.rooms
	rooms := make([][]*capPlayer, c.rooms)
	var wg sync.WaitGroup
	sem := make(chan struct{}, c.connectConc)
	codes := make([]string, c.rooms)
	codeReady := make([]chan struct{}, c.rooms)
	for i := range codeReady {
		codeReady[i] = make(chan struct{})
	}
	var connected atomic.Int64
	for i := range c.sessions {
		room, seat := i/perRoom, i%perRoom // rooms fill one after another
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			began := time.Now()
			var p *capPlayer
			var err error
			if c.screen == "lobby" {
				p, err = connectLobby(ctx, serverOf(room), i, c)
			} else {
				p, err = connectPlayer(ctx, serverOf(room), i, c, room, seat, perRoom, codes, codeReady)
			}
			if err != nil {
				var refusal refusedErr
				switch {
				case errors.As(err, &refusal):
					count(res.Refused, string(refusal))
				case errors.Is(err, errNoRoom):
					mu.Lock()
					res.Skipped++
					mu.Unlock()
				default:
					count(res.Errors, firstLine(err.Error()))
				}
				log.Debug("player not seated", "player", i, "err", err)
				return
			}
			rec.mu.Lock()
			rec.samples["connect"] = append(rec.samples["connect"], time.Since(began))
			rec.mu.Unlock()
			connected.Add(1)
			mu.Lock()
			rooms[room] = append(rooms[room], p)
			mu.Unlock()
		})
	}
	wg.Wait()
	res.Connected = int(connected.Load())
	return rooms, codes
}

// closeRooms ends every player's session.
func closeRooms(rooms [][]*capPlayer) {
	for _, ps := range rooms {
		for _, p := range ps {
			p.screen.close()
			p.client.Close()
		}
	}
}

// sitIdle reads the server's figures with every screen drawn (seated),
// after --idle without a key (idled: the CPU an idle session costs), and
// after a collection (held: what the sessions cost while they sit, the
// timers set as the rooms filled up run out by then), saving the
// profiles there with --profiles.
func sitIdle(ctx context.Context, c config, pr probe, res *capResult) (seated, idled, held sample, err error) {
	seated, _ = pr.read(false)
	idled = seated
	if c.idle > 0 {
		select {
		case <-ctx.Done():
		case <-time.After(c.idle):
		}
		idled, _ = pr.read(false)
	}
	held, _ = pr.read(true)
	if c.profiles != "" {
		name := c.screen
		if c.label != "" {
			name += "-" + c.label
		}
		if err := pr.saveProfiles(c.profiles, name); err != nil {
			return seated, idled, held, fmt.Errorf("profiles: %w", err)
		}
		res.Profiles = c.profiles
	}
	if p, _ := pr.read(false); p.m != nil {
		held.at = p.at // play's CPU from here: not the collection's, nor the profiles'
		held.m["process_cpu_seconds_total"] = p.m["process_cpu_seconds_total"]
	}
	return seated, idled, held, nil
}

// playRooms plays until --duration (or --moves moves) is up: each room's
// players take turns, at a table or in the lobby, while the server's CPU
// profile is taken (--cpu-profile). It returns the server's figures at
// the end.
func playRooms(ctx context.Context, c config, rooms [][]*capPlayer, rec *recorder, pr probe) (sample, playOut, error) {
	playCtx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	var moves budget
	moves.left.Store(1 << 62)
	if c.movesGiven {
		moves.left.Store(int64(c.moves))
	}
	profiled := make(chan error, 1)
	if c.cpuProfile != "" {
		go func() { profiled <- pr.saveCPUProfile(c.cpuProfile, c.duration) }()
	} else {
		profiled <- nil
	}
	meter, err := startClientMeter(c.clientCPUProfile)
	if err != nil {
		return sample{}, playOut{}, fmt.Errorf("client cpu profile: %w", err)
	}
	var wg sync.WaitGroup
	out := playOut{pacer: &pacer{think: c.think, rate: c.rate}}
	for r, ps := range rooms {
		switch {
		case c.screen == "lobby" && len(ps) > 0:
			wg.Go(func() { browseLobby(playCtx, c, ps, uint64(r), rec) })
		case len(ps) >= 2:
			out.rooms++
			out.players += len(ps)
			wg.Go(func() { playRoom(playCtx, out.pacer, ps, uint64(r), rec, &moves) })
		}
	}
	wg.Wait()
	var uerr error
	out.use, uerr = meter.stop()
	played, _ := pr.read(false)
	if err := <-profiled; err != nil {
		return played, out, fmt.Errorf("cpu profile: %w", err)
	}
	return played, out, uerr
}

// playOut is what a play did besides the latencies: the clients' CPU, and
// the pace of the rooms played, of players in all.
type playOut struct {
	use            clientUse
	pacer          *pacer
	rooms, players int
}

// figures sums up the run: the players' latencies from rec, and the
// server's costs from its figures before, seated, idled, held and played.
func (res *capResult) figures(rec *recorder, before, seated, idled, held, played sample) {
	res.Connect = summarise(rec.samples["connect"])
	// A censored sample counts as its window, which is less than it was:
	// a percentile or max that lands on one is shown as "> window".
	res.KeyToOwn = summarise(append(rec.samples["key"], slices.Repeat([]time.Duration{keyWindow}, rec.missed)...))
	res.MoveToRest = summarise(append(rec.samples["move"], slices.Repeat([]time.Duration{moveWindow}, rec.censored)...))
	res.Moves, res.KeyMisses = rec.moves, rec.missed
	res.MoveCensored, res.EntersUnseen = rec.censored, rec.unseen
	res.serverCost = costOf(before, seated, idled, held, played, res.Connected)
	if played.m != nil && held.m != nil && before.m != nil {
		res.ServerMoves = int(played.m["smokestack_moves_committed_total"] - held.m["smokestack_moves_committed_total"])
		if res.ServerMoves > 0 {
			moves := float64(res.ServerMoves)
			cpu := played.m["process_cpu_seconds_total"] - held.m["process_cpu_seconds_total"]
			secs := played.at.Sub(held.at).Seconds()
			res.CPUPerMoveMs = roundTenth(cpu * 1000 / moves)
			idle := res.IdleCPU / 1e6 * float64(res.Connected) * secs
			res.CPUPerMoveLessIdleMs = roundTenth((cpu - idle) * 1000 / moves)
			if res.Connected > 0 && secs > 0 {
				res.MovesPerPlayerMinute = roundTenth(moves / float64(res.Connected) / (secs / 60))
			}
			frames := played.m["smokestack_frames_total"] - held.m["smokestack_frames_total"]
			res.FramesPerMove = roundTenth(frames / moves)
			if frames > 0 {
				res.WritesPerFrame = roundHundredth((played.m["smokestack_conn_writes_total"] - held.m["smokestack_conn_writes_total"]) / frames)
			}
		}
		res.ServerMoveToRest = quantilesOf("smokestack_move_to_others_frame_seconds", held, played)
		res.ServerCommit = quantilesOf("smokestack_move_commit_seconds", held, played)
		res.ServerRSSMB = roundTenth(played.m["process_resident_memory_bytes"] / (1 << 20))
		res.ServerRefusals = int(played.m["smokestack_refusals_total"] - before.m["smokestack_refusals_total"])
	}
}

// errNoRoom is a player whose room was never created.
var errNoRoom = errors.New("its room was never created")

// refusedErr is a session the server turned away, with what it said.
type refusedErr string

func (r refusedErr) Error() string { return string(r) }

// connectPlayer connects player i, creating its room if it is the room's
// first, and opens its game screen.
func connectPlayer(ctx context.Context, server string, i int, c config, room, seat, perRoom int, codes []string, ready []chan struct{}) (*capPlayer, error) {
	if seat == 0 {
		// However it goes, the room's other players stop waiting: with a
		// code, or without one if this player never made the room.
		defer close(ready[room])
	}
	name, client, err := dialPlayer(ctx, server, i, c)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*capPlayer, error) {
		client.Close()
		if msg, ok := strings.CutPrefix(err.Error(), "refused: "); ok {
			return nil, refusedErr(msg)
		}
		return nil, err
	}
	if seat == 0 {
		out, err := runCommand(client, fmt.Sprintf("new --players %d --private", min(perRoom, 5)))
		if err != nil {
			if err = refusalOf(err); errors.As(err, new(refusedErr)) {
				return fail(err)
			}
			return fail(errors.New("new failed: " + strings.TrimPrefix(err.Error(), "new --players")))
		}
		codes[room] = strings.TrimSpace(out)
	} else {
		select {
		case <-ready[room]:
		case <-ctx.Done():
			return fail(ctx.Err())
		}
		if codes[room] == "" {
			return fail(errNoRoom)
		}
	}
	code, _, _ := strings.Cut(codes[room], "-") // the screen shows a private room's code, not its invite
	sc, err := openScreen(ctx, client, name, "join "+codes[room], code, c)
	if err != nil {
		return fail(err)
	}
	return &capPlayer{name: name, client: client, screen: sc}, nil
}

// connectLobby connects player i to the lobby screen.
func connectLobby(ctx context.Context, server string, i int, c config) (*capPlayer, error) {
	name, client, err := dialPlayer(ctx, server, i, c)
	if err != nil {
		return nil, err
	}
	sc, err := openScreen(ctx, client, name, "", "signed in as", c)
	if err != nil {
		client.Close()
		return nil, err
	}
	return &capPlayer{name: name, client: client, screen: sc}, nil
}

// dialPlayer connects player i over SSH with a fresh key, from its own
// loopback address. A connection the server refuses before logging in
// is a refusedErr with what its banner said.
func dialPlayer(ctx context.Context, server string, i int, c config) (string, *gossh.Client, error) {
	key, err := newKey()
	if err != nil {
		return "", nil, err
	}
	var banner strings.Builder
	from := &net.TCPAddr{IP: net.IPv4(127, 0, byte(1+i/c.perAddr/250), byte(2+i/c.perAddr%250))}
	d := net.Dialer{LocalAddr: from, Timeout: 20 * time.Second}
	nc, err := d.DialContext(ctx, "tcp", server)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("load-%d", i)
	cc, chans, reqs, err := gossh.NewClientConn(nc, server, &gossh.ClientConfig{User: name,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(key)}, HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		BannerCallback: func(m string) error { banner.WriteString(m); return nil }})
	if err != nil {
		nc.Close()
		if b := strings.TrimSpace(banner.String()); b != "" {
			return "", nil, refusedErr(b)
		}
		return "", nil, err
	}
	return name, gossh.NewClient(cc, chans, reqs), nil
}

// openScreen opens a terminal session running cmd (the lobby when
// empty) and waits until it shows want.
func openScreen(ctx context.Context, client *gossh.Client, name, cmd, want string, c config) (*screen, error) {
	sc, err := startScreen(client, name, cmd, c.width, c.height)
	if err != nil {
		return nil, err
	}
	sc.mu.Lock()
	sc.maxText = 64 << 10 // thousands of screens: keep only their first frames
	sc.mu.Unlock()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := sc.waitText(wctx, want); err != nil {
		sc.close()
		if r := refusalIn(sc); r != "" {
			return nil, refusedErr(r)
		}
		// One message for all, so the report counts them together.
		return nil, fmt.Errorf("the %s screen did not open within 30s", c.screen)
	}
	sc.opened()
	return sc, nil
}

// refusalOf turns a command's failure that carries a server refusal into
// a refusedErr.
func refusalOf(err error) error {
	if i := strings.Index(err.Error(), "smokestack: "); i >= 0 {
		return refusedErr(strings.TrimSpace(err.Error()[i+len("smokestack: "):]))
	}
	return err
}

// refusalIn returns the refusal a screen shows instead of the game, if any.
func refusalIn(s *screen) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, r, ok := strings.Cut(string(s.text), "smokestack: "); ok {
		return strings.TrimSpace(firstLine(r))
	}
	return ""
}

// Samples are waited for this long, and counted as censored past it: a
// key that always redraws (keyWindow, its own screen), and the others'
// screens after a move was played (moveWindow). The report shows a metric
// with censored samples as "> window" where a figure lands on one, and
// counts them. An enter is given enterWindow to redraw its own screen:
// one that plays nothing may redraw nothing (the same refusal as last
// time), so waiting longer would stall the room; one that draws nothing
// in time is counted as unseen, neither a move nor a sample.
const (
	keyWindow   = 10 * time.Second
	moveWindow  = 15 * time.Second
	enterWindow = 2 * time.Second
)

// noMove is what the mover's own screen says after an enter that played
// nothing: a refusal ("✗ nothing to play right now" off its turn) or a
// costly move waiting for its second enter; moved what it says after one
// that played a move: "sending MOVE…", then "played: MOVE".
var (
	noMove = []string{"✗ ", askAgain}
	moved  = []string{"sending ", "played: "}
)

// askAgain is a costly move's question: press enter again to play it.
const askAgain = "press enter again"

// answerOf reads the mover's output since its enter, escapes removed, for
// the enter's answer: whether it says one (answered), and whether that
// was a move played; the first to show is the answer, but for a move
// sent and then refused ("sending …", then "✗ not played: …"). Anything
// else (a hint coming in, a redraw of the menu) is no answer: a move
// played is known by what it says, not by the absence of a refusal, so a
// late redraw of an earlier key is not taken for one.
func answerOf(text string) (played, answered bool) {
	no, yes := firstOf(text, noMove), firstOf(text, moved)
	switch {
	case no < 0 && yes < 0:
		return false, false
	case yes >= 0 && (no < 0 || yes < no):
		// Sent is played, unless the room refused it after all.
		sent, ok := strings.CutPrefix(text[yes:], moved[0])
		return !ok || firstOf(sent, noMove) < 0, true
	}
	return false, true
}

// firstOf is where the first of marks is in text; -1 for none.
func firstOf(text string, marks []string) int {
	first := -1
	for _, m := range marks {
		if i := strings.Index(text, m); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

// enterAnswerOf is answerOf's answer for choosing who acts next: a move
// played, a refusal, a second enter asked for (the player still has a
// move to play), or none.
func enterAnswerOf(text string) enterAnswer {
	switch played, answered := answerOf(text); {
	case !answered:
		return answerNone
	case played:
		return answerPlayed
	}
	no, yes := firstOf(text, noMove), firstOf(text, moved) // no ≥ 0: answered, not played
	if strings.HasPrefix(text[no:], askAgain) && (yes < 0 || no < yes) {
		return answerAsked
	}
	return answerRefused
}

// navKeys move through the move menu: next/previous card, next/previous
// move. Not h: on the game screen it asks for a hint.
var navKeys = []string{"\t", "l", "\x1b[D", "j", "k", "\x1b[B", "\x1b[A"}

// playRoom has the room's players act, one at a time, each action by one
// who may (turns), until ctx ends.
func playRoom(ctx context.Context, pc *pacer, ps []*capPlayer, seed uint64, rec *recorder, moves *budget) {
	rnd := mrand.New(mrand.NewPCG(seed, 0xcafe))
	pace := pc.room(len(ps), rnd, seed)
	defer pace.stop()
	turns, seats := newTurns(len(ps)), make([]seatView, len(ps))
	for pace.next(ctx, rec) {
		for i, o := range ps {
			seats[i] = o.screen.seat()
		}
		k := turns.next(seats)
		p := ps[k]
		// A key that always redraws (? opens the key help), and its redraw
		// on the player's own screen; ? again closes it.
		if !ownFrame(ctx, p, rec) {
			return
		}
		time.Sleep(20 * time.Millisecond)
		keys := "?"
		for range 1 + rnd.IntN(3) { // then somewhere in the move menu
			keys += navKeys[rnd.IntN(len(navKeys))]
		}
		p.screen.watch(time.Now())
		if _, err := io.WriteString(p.screen.in, keys); err != nil {
			return
		}
		if !moves.take() {
			return
		}
		// Play the move the menu is on, once the navigation's redraws
		// have ended: its first (? closing the key help always redraws),
		// then 40 ms without output. A redraw of theirs arriving after
		// the enter would be taken for its answer, and a refused enter
		// for a move played, whose others' frames never come.
		settle(ctx, p.screen, navQuiet, enterWindow)
		sent, answer, err := pressEnter(ctx, p, ps)
		if err == nil && answer == answerAsked {
			// A costly move asks for a second enter, and a person who
			// chose it gives one, once its question has been drawn.
			settle(ctx, p.screen, navQuiet, enterWindow)
			sent, answer, err = pressEnter(ctx, p, ps)
		}
		if err != nil {
			return
		}
		turns.answered(k, answer, p.screen.seat().titles)
		pace.done(answer == answerPlayed)
		switch {
		case answer == answerNone && ctx.Err() == nil:
			// The mover's own screen drew nothing in enterWindow: whether
			// a move was played is not known.
			rec.mu.Lock()
			rec.unseen++
			rec.mu.Unlock()
			continue
		case answer != answerPlayed:
			moves.left.Add(1) // refused, or asked again: no move was made
			continue
		}
		var got []time.Duration
		censored := 0
		for _, o := range ps {
			if o == p {
				continue
			}
			if at, err := waitFirst(ctx, o.screen, time.Until(sent.Add(moveWindow))); err == nil {
				got = append(got, at.Sub(sent))
			} else if ctx.Err() == nil {
				censored++
			}
		}
		rec.mu.Lock()
		if len(got) > 0 || censored > 0 {
			rec.moves++
			rec.roomMoves[seed]++
		}
		rec.samples["move"] = append(rec.samples["move"], got...)
		rec.censored += censored
		rec.mu.Unlock()
	}
}

// pressEnter presses enter on p's screen, watching every screen in the
// room from then on, and reads its answer there.
func pressEnter(ctx context.Context, p *capPlayer, ps []*capPlayer) (time.Time, enterAnswer, error) {
	sent := time.Now()
	for _, o := range ps {
		if o == p {
			o.screen.watchText(sent) // its status line tells whether a move was played
		} else {
			o.screen.watch(sent)
		}
	}
	if _, err := io.WriteString(p.screen.in, "\r"); err != nil {
		return sent, answerNone, err
	}
	return sent, moveShown(ctx, p.screen), nil
}

// moveShown reads the mover's own screen after its enter until it gives
// the enter's answer (enterAnswerOf) or enterWindow passes (answerNone).
func moveShown(ctx context.Context, s *screen) enterAnswer {
	ctx, cancel := context.WithTimeout(ctx, enterWindow)
	defer cancel()
	for {
		if a := enterAnswerOf(s.sinceWatch()); a != answerNone {
			return a
		}
		select {
		case <-s.changed:
		case <-ctx.Done():
			return answerNone
		}
	}
}

// browseLobby takes turns at a group of lobby players until ctx ends:
// each in turn opens the key help, which redraws its screen (key to own
// frame), and closes it.
func browseLobby(ctx context.Context, c config, ps []*capPlayer, seed uint64, rec *recorder) {
	rnd := mrand.New(mrand.NewPCG(seed, 0xcafe))
	for turn := 0; ctx.Err() == nil; turn++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(jitter(rnd, c.think)):
		}
		p := ps[turn%len(ps)]
		if !ownFrame(ctx, p, rec) {
			return
		}
		time.Sleep(20 * time.Millisecond)
		if _, err := io.WriteString(p.screen.in, "?"); err != nil {
			return
		}
	}
}

// ownFrame presses ? (the key help, which always redraws) on p's screen
// and records how long its redraw took to start arriving; false when the
// session is gone.
func ownFrame(ctx context.Context, p *capPlayer, rec *recorder) bool {
	p.screen.watch(time.Now())
	sent := time.Now()
	if _, err := io.WriteString(p.screen.in, "?"); err != nil {
		return false
	}
	at, err := waitFirst(ctx, p.screen, keyWindow)
	rec.mu.Lock()
	if err == nil {
		rec.samples["key"] = append(rec.samples["key"], at.Sub(sent))
	} else if ctx.Err() == nil {
		rec.missed++
	}
	rec.mu.Unlock()
	return true
}

// navQuiet is how long a mover's screen stays quiet before its enter:
// the menu's redraws are over.
const navQuiet = 40 * time.Millisecond

// settle waits, up to limit in all, for the screen's first output since
// watch and then for quiet of d.
func settle(ctx context.Context, s *screen, d, limit time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if _, err := s.firstOutput(ctx); err == nil {
		s.quiet(ctx, d)
	}
}

// waitFirst waits up to d for the screen's first output since watch.
func waitFirst(ctx context.Context, s *screen, d time.Duration) (time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return s.firstOutput(ctx)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// cell is a figure of a metric for the table, in milliseconds: "> window"
// when it is a censored sample, whose real value is not known.
func cell(v float64, censored int, window time.Duration) string {
	if censored > 0 && v >= float64(window.Milliseconds()) {
		return fmt.Sprintf("> %dms", window.Milliseconds())
	}
	return fmt.Sprintf("%.1fms", v)
}

func roundTenth(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

func roundHundredth(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

func (r capResult) writeJSON(w io.Writer) error { return printJSON(w, r) }

func (r capResult) writeTable(w io.Writer) error {
	where := "a server process started here (serve's default limits, bbolt)"
	if r.Mode == "target" {
		where = "the instance at " + r.Server
	}
	fmt.Fprintf(w, "smokeload capacity: %d of %d players seated on the %s screen (%d rooms) on %s, %.1fs, think %s\n\n",
		r.Connected, r.Sessions, r.Screen, r.Rooms, where, r.Seconds, r.Think)
	fmt.Fprintf(w, "                          count        p50        p99        max  censored\n")
	for _, m := range []struct {
		label    string
		s        stats
		censored int
		window   time.Duration
	}{
		{"connect to first frame", r.Connect, 0, 0}, // one that never came is an error below
		{"key to own frame", r.KeyToOwn, r.KeyMisses, keyWindow},
		{"move to others' frame", r.MoveToRest, r.MoveCensored, moveWindow},
	} {
		fmt.Fprintf(w, "  %-22s %7d %10s %10s %10s %9d\n", m.label, m.s.Count,
			cell(m.s.P50, m.censored, m.window), cell(m.s.P99, m.censored, m.window), cell(m.s.Max, m.censored, m.window), m.censored)
	}
	errs := 0
	for _, n := range r.Errors {
		errs += n
	}
	fmt.Fprintf(w, "\nmoves played %d (server counted %d); keys not redrawn within %s %d; moves not shown to another player within %s %d; enters not answered on the mover's own screen within %s %d; errors %d\n",
		r.Moves, r.ServerMoves, keyWindow, r.KeyMisses, moveWindow, r.MoveCensored, enterWindow, r.EntersUnseen, errs)
	if r.ServerRSSMB > 0 {
		after := "as the resident set was"
		if r.Freed {
			after = "after collecting garbage and returning it to the OS"
		}
		fmt.Fprintf(w, "server, per session (%s): %.1f KB RSS, %.1f KB Go heap (%.1f KB of spans), %.1f KB stacks, %.1f KB the runtime's own, %.1f goroutines\n",
			after, r.RSSKB, r.HeapKB, r.HeapSpansKB, r.StackKB, r.RuntimeKB, r.Goroutines)
		fmt.Fprintf(w, "server CPU per session: %.1f µs/s idle, %.1f µs/s at play; %.1f ms per move (%.1f less the idle sessions'); %.1f MB RSS at the end\n",
			r.IdleCPU, r.PlayCPU, r.CPUPerMoveMs, r.CPUPerMoveLessIdleMs, r.ServerRSSMB)
		fmt.Fprintf(w, "play: %.1f moves a minute per player; %.1f frames per move, %.2f writes to connections per frame\n",
			r.MovesPerPlayerMinute, r.FramesPerMove, r.WritesPerFrame)
		if m, c := r.ServerMoveToRest, r.ServerCommit; m.Count > 0 {
			fmt.Fprintf(w, "server, from its histograms: move stored to others' frame written p50 %.1fms p90 %.1fms p99 %.1fms (%d frames); move's commit p50 %.1fms p99 %.1fms\n",
				m.P50, m.P90, m.P99, m.Count, c.P50, c.P99)
		}
	}
	r.Pace.write(w)
	if r.ClientCPUCores > 0 {
		idle := ""
		if r.ClientsIdle {
			idle = ", on the cores the server left"
		}
		fmt.Fprintf(w, "clients (smokeload's own process, GOMAXPROCS %d%s): %.2f cores over the play, %.1f ms a move\n", r.ClientProcs, idle, r.ClientCPUCores, r.ClientCPUPerMoveMs)
	}
	if r.Profiles != "" {
		fmt.Fprintf(w, "heap and goroutine profiles with everyone seated: %s\n", r.Profiles)
	}
	for msg, n := range r.Refused {
		fmt.Fprintf(w, "refused %d: %s\n", n, msg)
	}
	if r.Skipped > 0 {
		fmt.Fprintf(w, "skipped %d: their room's first player was refused, so it was never created\n", r.Skipped)
	}
	for msg, n := range r.Errors {
		fmt.Fprintf(w, "error %d: %s\n", n, msg)
	}
	_, err := fmt.Fprintf(w, "server refusals counted %d, panics in its log %d\n", r.ServerRefusals, r.Panics)
	return err
}
