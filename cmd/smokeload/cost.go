package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// Cost mode (--redis-info): what players cost Redis and each instance,
// per unit, over running instances (--target A,B,…) sharing one Redis or
// one Redis Cluster. It runs deterministic phases and reads Redis's INFO
// (commands by name, bytes in and out) and, with --pids, each instance's
// CPU from /proc/PID/stat, before and after each:
//
//   - baseline: the instances alone, nobody connected (--baseline);
//   - connect: the players seated and the watchers watching, nothing else;
//   - idle: everyone sits without a key (--idle);
//   - moves: the rooms play (--duration or --moves).
//
// Each room's players sit on one instance, its home (room r's is the
// r-th of the first --player-targets, round robin), and --watchers more
// people watch its game from the next instances: a move is an own move on
// its home and a remote change on each watcher's instance, which hears it
// through Redis. An instance with only own moves gives the CPU a move
// costs, one with only watchers the CPU a remote change costs, and one
// with neither what hearing the others' announcements costs. With
// --model, earlier runs' units predict this run's Redis work and each
// instance's CPU, side by side with what was measured: the capacity
// model's check (docs/scaling.md).

// costResult is what one cost run measured, and the units worked out of it.
type costResult struct {
	Targets   []string `json:"targets"`
	Players   int      `json:"players"`
	Watchers  int      `json:"watchers_per_room"`
	Rooms     int      `json:"rooms"`
	Connected int      `json:"connected"`
	Think     string   `json:"think"`
	Moves     int      `json:"moves"`
	// Claims is the seat claims: rooms with players seated, each on its
	// home instance.
	Claims int `json:"claims"`
	// Phases in order: baseline, connect, idle, moves.
	Phases    []costPhase    `json:"phases"`
	Instances []costInstance `json:"instances"`
	Units     costUnits      `json:"units"`
	// Prediction is this run as the units of --model predicted it.
	Prediction *prediction    `json:"prediction,omitempty"`
	Model      string         `json:"model,omitempty"`
	Refused    map[string]int `json:"refused,omitempty"`
	Errors     map[string]int `json:"errors,omitempty"`
}

// costPhase is the work done over one phase.
type costPhase struct {
	Name    string    `json:"name"`
	Seconds float64   `json:"seconds"`
	Redis   redisWork `json:"redis"`
	// CPUms is each instance's CPU over the phase, in --target order;
	// nil without --pids.
	CPUms []float64 `json:"cpu_ms,omitempty"`
	// TerminalBytes is what every player's and watcher's terminal
	// received over the phase.
	TerminalBytes int64 `json:"terminal_bytes"`
}

// costInstance is one instance's part in the run.
type costInstance struct {
	Target   string `json:"target"`
	PID      int    `json:"pid,omitempty"`
	Players  int    `json:"players"`
	Watchers int    `json:"watchers"`
	// Own is the moves of rooms whose players sit here; Heard those of
	// rooms watched from here; Deaf the rest, which it holds no part of.
	Own   int `json:"own_moves"`
	Heard int `json:"heard_changes"`
	Deaf  int `json:"deaf_changes"`
}

func (in costInstance) sessions() int { return in.Players + in.Watchers }

// costLayout is where each room's players and watchers sit.
type costLayout struct {
	n, players, watchers int
}

func (l costLayout) home(room int) int { return room % l.players }

// watcherAt is the instance of a room's w-th watcher.
func (l costLayout) watcherAt(room, w int) int { return (l.home(room) + 1 + w) % l.n }

// cost runs cost mode.
func cost(ctx context.Context, c config, log *slog.Logger) (costResult, error) {
	res := costResult{Targets: c.capTargets, Players: c.sessions, Watchers: c.watchers, Rooms: c.rooms,
		Think: c.pace(), Refused: map[string]int{}, Errors: map[string]int{}, Model: c.model}
	meter, err := newRedisMeter(c.redisInfo)
	if err != nil {
		return res, err
	}
	defer meter.Close()
	lay := costLayout{n: len(c.capTargets), players: c.playerTargets, watchers: c.watchers}
	ph := &phaser{ctx: ctx, meter: meter, pids: c.pids}
	if err := ph.start(); err != nil {
		return res, err
	}
	wait := func(d time.Duration) {
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
	wait(c.baseline)
	if err := ph.end(&res, "baseline"); err != nil {
		return res, err
	}
	rec := newRecorder()
	seated := capResult{Refused: res.Refused, Errors: res.Errors}
	rooms, codes := seatPlayers(ctx, c, func(r int) string { return c.capTargets[lay.home(r)] }, rec, &seated, log)
	watchers := seatWatchers(ctx, c, lay, codes, &seated)
	defer func() { closeRooms(append(rooms, watchers)) }()
	res.Connected = seated.Connected + len(watchers)
	log.Info("seated", "players", seated.Connected, "watchers", len(watchers))
	for _, ps := range append(rooms, watchers) {
		ph.screens = append(ph.screens, ps...)
	}
	if err := ph.end(&res, "connect"); err != nil {
		return res, err
	}
	wait(c.idle)
	if err := ph.end(&res, "idle"); err != nil {
		return res, err
	}
	if _, _, err := playRooms(ctx, c, rooms, rec, probe{}); err != nil {
		return res, err
	}
	if err := ph.end(&res, "moves"); err != nil {
		return res, err
	}
	res.tally(c, lay, rooms, watchers, rec)
	res.Units = res.units()
	if c.model != "" {
		var us []costUnits
		for _, path := range splitList(c.model) {
			u, err := readModel(path)
			if err != nil {
				return res, err
			}
			us = append(us, u)
		}
		p := fit(us).predict(res)
		res.Prediction = &p
	}
	return res, ctx.Err()
}

// seatWatchers opens --watchers screens watching each room's game from
// the instances the layout names, after the players are seated.
func seatWatchers(ctx context.Context, c config, lay costLayout, codes []string, res *capResult) []*capPlayer {
	var mu sync.Mutex
	var out []*capPlayer
	var wg sync.WaitGroup
	sem := make(chan struct{}, c.connectConc)
	for r, code := range codes {
		for w := range lay.watchers {
			if code == "" {
				continue
			}
			i := c.sessions + r*lay.watchers + w // after the players' addresses
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				p, err := connectWatcher(ctx, c.capTargets[lay.watcherAt(r, w)], i, code, c)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					res.Errors["watcher: "+firstLine(err.Error())]++
					return
				}
				p.room, p.at = r, lay.watcherAt(r, w)
				out = append(out, p)
			})
		}
	}
	wg.Wait()
	return out
}

// connectWatcher connects person i to watch the game of the room with
// invite code (CODE-SECRET for a private room).
func connectWatcher(ctx context.Context, server string, i int, code string, c config) (*capPlayer, error) {
	name, client, err := dialPlayer(ctx, server, i, c)
	if err != nil {
		return nil, err
	}
	short, _, _ := strings.Cut(code, "-")
	sc, err := openScreen(ctx, client, name, "watch "+code, short, c)
	if err != nil {
		client.Close()
		return nil, err
	}
	return &capPlayer{name: name, client: client, screen: sc}, nil
}

// tally counts each instance's sessions and its moves: own, heard, deaf.
func (res *costResult) tally(c config, lay costLayout, rooms [][]*capPlayer, watchers []*capPlayer, rec *recorder) {
	res.Instances = make([]costInstance, lay.n)
	for k, t := range c.capTargets {
		res.Instances[k].Target = t
		if k < len(c.pids) {
			res.Instances[k].PID = c.pids[k]
		}
	}
	for r, ps := range rooms {
		res.Instances[lay.home(r)].Players += len(ps)
		if len(ps) > 0 {
			res.Claims++
		}
	}
	heard := map[[2]int]bool{} // instance, room
	for _, w := range watchers {
		res.Instances[w.at].Watchers++
		heard[[2]int{w.at, w.room}] = true
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for r := range rooms {
		n := rec.roomMoves[uint64(r)]
		res.Moves += n
		for k := range res.Instances {
			switch {
			case lay.home(r) == k:
				res.Instances[k].Own += n
			case heard[[2]int{k, r}]:
				res.Instances[k].Heard += n
			default:
				res.Instances[k].Deaf += n
			}
		}
	}
}

// phaser reads Redis's work and the instances' CPU at each phase's start
// and end.
type phaser struct {
	ctx   context.Context
	meter *redisMeter
	pids  []int
	// screens are the terminals connected so far, whose bytes are read.
	screens  []*capPlayer
	at       time.Time
	redis    redisWork
	cpu      []time.Duration
	terminal int64
}

func (p *phaser) received() int64 {
	var n int64
	for _, s := range p.screens {
		n += s.screen.received()
	}
	return n
}

func (p *phaser) read() (redisWork, []time.Duration, error) {
	w, err := p.meter.read(p.ctx)
	if err != nil {
		return w, nil, err
	}
	var cpu []time.Duration
	for _, pid := range p.pids {
		t, err := processCPU(pid)
		if err != nil {
			return w, nil, err
		}
		cpu = append(cpu, t)
	}
	return w, cpu, nil
}

func (p *phaser) start() (err error) {
	p.at = time.Now()
	p.redis, p.cpu, err = p.read()
	return err
}

// end records the phase called name, which the next one follows.
func (p *phaser) end(res *costResult, name string) error {
	if err := p.ctx.Err(); err != nil {
		return err
	}
	at := time.Now()
	w, cpu, err := p.read()
	if err != nil {
		return fmt.Errorf("after the %s phase: %w", name, err)
	}
	term := p.received()
	ph := costPhase{Name: name, Seconds: at.Sub(p.at).Seconds(), Redis: w.minus(p.redis), TerminalBytes: term - p.terminal}
	for k := range cpu {
		ph.CPUms = append(ph.CPUms, float64(cpu[k]-p.cpu[k])/float64(time.Millisecond))
	}
	res.Phases = append(res.Phases, ph)
	p.at, p.redis, p.cpu, p.terminal = at, w, cpu, term
	return nil
}

// readModel reads a cost run's JSON (smokeload --redis-info … --json).
func readModel(path string) (costUnits, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return costUnits{}, fmt.Errorf("--model: %w", err)
	}
	var r costResult
	if err := json.Unmarshal(b, &r); err != nil {
		return costUnits{}, fmt.Errorf("--model %s: not a cost run's JSON: %w", path, err)
	}
	if r.Units.Move.Commands == 0 {
		return costUnits{}, fmt.Errorf("--model %s: the run measured no moves", path)
	}
	return r.Units, nil
}

func (r costResult) writeJSON(w io.Writer) error { return printJSON(w, r) }
