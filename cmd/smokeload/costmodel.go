package main

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// costUnits are a cost run's figures per unit: what the capacity model
// (docs/scaling.md) multiplies by a deployment's numbers. Redis's are
// commands, scripts and bytes (redisAmount); the CPU's an instance's. A
// figure the run's layout could not isolate is zero.
type costUnits struct {
	// An instance with nobody connected, a second: its heartbeats,
	// subscription pings and the like.
	BaseInstanceSec         redisAmount `json:"base_instance_s"`
	BaseCPUPerInstanceMsSec float64     `json:"base_cpu_ms_per_instance_s"`
	// A player seated at a table, or a watcher watching: its connection,
	// the room made or joined, the first frame.
	Connect redisAmount `json:"connect"`
	// A session sitting idle, a minute, beyond the instances' own; and
	// the same per seat claim (a room and an instance holding a seat in
	// it: presence is renewed per claim).
	SessionMin          redisAmount `json:"session_min"`
	ClaimMin            redisAmount `json:"claim_min"`
	IdleCPUPerSessionUs float64     `json:"idle_cpu_us_per_session_s"`
	// A move, beyond the idle work: its commit and announcement, and the
	// catch-ups of the instances that hear it (RemotesPerMove of them).
	Move           redisAmount `json:"move"`
	RemotesPerMove float64     `json:"remotes_per_move"`
	// MovePerRemote is what each instance hearing a move adds to it, when
	// a model of runs with different remotes per move (fit) tells.
	MovePerRemote redisAmount `json:"move_per_remote,omitzero"`
	// CPU: on the mover's instance per move (its keys, the commit, its
	// room's screens there); per remote change an instance hears for a
	// room it has a screen in; per change announced that it holds no
	// part of (on one channel for all rooms every instance hears all).
	CPUPerMoveMs   float64 `json:"cpu_ms_per_move"`
	CPUPerRemoteMs float64 `json:"cpu_ms_per_remote_change"`
	CPUPerDeafMs   float64 `json:"cpu_ms_per_deaf_change"`
	// What the players' terminals received (SSH's payload): per move,
	// every screen of the room with the mover's keys; per idle session
	// a minute.
	TerminalBytesPerMove       float64 `json:"terminal_bytes_per_move"`
	TerminalBytesPerSessionMin float64 `json:"terminal_bytes_per_session_min"`
}

// redisAmount is Redis work: the commands run (a script's own calls each
// count), the scripts among them (each once), bytes in and out, and the
// primaries' CPU.
type redisAmount struct {
	Commands float64 `json:"commands"`
	Scripts  float64 `json:"scripts"`
	Bytes    float64 `json:"bytes"`
	CPUms    float64 `json:"cpu_ms"`
}

func amountOf(w redisWork) redisAmount {
	return redisAmount{float64(w.total()), float64(w.scripts()), float64(w.InBytes + w.OutBytes), w.CPUSeconds * 1000}
}

func (a redisAmount) plus(b redisAmount) redisAmount {
	return redisAmount{a.Commands + b.Commands, a.Scripts + b.Scripts, a.Bytes + b.Bytes, a.CPUms + b.CPUms}
}

func (a redisAmount) times(f float64) redisAmount {
	return redisAmount{a.Commands * f, a.Scripts * f, a.Bytes * f, a.CPUms * f}
}

// over is a divided by n, zero when n is.
func (a redisAmount) over(n float64) redisAmount {
	if n == 0 {
		return redisAmount{}
	}
	return a.times(1 / n)
}

// phase returns the named phase; a zero one when the run stopped before.
func (r costResult) phase(name string) costPhase {
	for _, p := range r.Phases {
		if p.Name == name {
			return p
		}
	}
	return costPhase{}
}

func perSec(v, secs float64) float64 {
	if secs <= 0 {
		return 0
	}
	return v / secs
}

func ratio(v, n float64) float64 {
	if n == 0 {
		return 0
	}
	return v / n
}

// units works the per-unit figures out of the phases: each phase's work
// less what the phase before it does at rest (the baseline's rate under
// the idle phase, the idle phase's under the moves).
func (r costResult) units() costUnits {
	base, conn, idle, moves := r.phase("baseline"), r.phase("connect"), r.phase("idle"), r.phase("moves")
	n, sessions, heard := float64(len(r.Instances)), 0.0, 0.0
	for _, in := range r.Instances {
		sessions += float64(in.sessions())
		heard += float64(in.Heard)
	}
	var u costUnits
	baseRate := amountOf(base.Redis).over(base.Seconds)
	idleRate := amountOf(idle.Redis).over(idle.Seconds)
	u.BaseInstanceSec = baseRate.over(n)
	u.Connect = amountOf(conn.Redis).over(float64(r.Connected))
	idleAbove := idleRate.plus(baseRate.times(-1)).times(60)
	u.SessionMin, u.ClaimMin = idleAbove.over(sessions), idleAbove.over(float64(r.Claims))
	u.Move = amountOf(moves.Redis).plus(idleRate.times(-moves.Seconds)).over(float64(r.Moves))
	u.RemotesPerMove = ratio(heard, float64(r.Moves))
	idleTerm := perSec(float64(idle.TerminalBytes), idle.Seconds)
	u.TerminalBytesPerSessionMin = 60 * ratio(idleTerm, sessions)
	u.TerminalBytesPerMove = ratio(float64(moves.TerminalBytes)-idleTerm*moves.Seconds, float64(r.Moves))
	if len(base.CPUms) != len(r.Instances) || len(moves.CPUms) != len(r.Instances) {
		return u
	}
	above := func(w, rate, secs float64) float64 { return w - rate*secs }
	var baseCPU, idleCPU, mv, mvN, rm, rmN, df, dfN float64
	for k, in := range r.Instances {
		baseRate, idleRate := perSec(base.CPUms[k], base.Seconds), perSec(idle.CPUms[k], idle.Seconds)
		baseCPU += baseRate
		idleCPU += idleRate - baseRate
		extra := above(moves.CPUms[k], idleRate, moves.Seconds)
		switch {
		case in.Own > 0 && in.Heard == 0:
			mv, mvN = mv+extra, mvN+float64(in.Own)
		case in.Heard > 0 && in.Own == 0:
			rm, rmN = rm+extra, rmN+float64(in.Heard)
		case in.Own == 0 && in.Heard == 0 && in.sessions() == 0:
			df, dfN = df+extra, dfN+float64(in.Deaf)
		}
	}
	u.BaseCPUPerInstanceMsSec = baseCPU / n
	u.IdleCPUPerSessionUs = 1000 * ratio(idleCPU, sessions)
	u.CPUPerMoveMs, u.CPUPerRemoteMs, u.CPUPerDeafMs = ratio(mv, mvN), ratio(rm, rmN), ratio(df, dfN)
	return u
}

// moveAt is a move's Redis work when r other instances hear it: Move,
// with MovePerRemote for each remote more or fewer than the model's.
func (u costUnits) moveAt(r float64) redisAmount {
	return u.Move.plus(u.MovePerRemote.times(r - u.RemotesPerMove))
}

// fit makes one model of several runs' units: each figure their mean,
// and a move's Redis work a line through the runs' remotes per move
// (least squares), which gives MovePerRemote when they differ.
func fit(us []costUnits) costUnits {
	var m costUnits
	n := float64(len(us))
	for _, u := range us {
		m.BaseInstanceSec = m.BaseInstanceSec.plus(u.BaseInstanceSec.over(n))
		m.BaseCPUPerInstanceMsSec += u.BaseCPUPerInstanceMsSec / n
		m.Connect = m.Connect.plus(u.Connect.over(n))
		m.SessionMin = m.SessionMin.plus(u.SessionMin.over(n))
		m.ClaimMin = m.ClaimMin.plus(u.ClaimMin.over(n))
		m.IdleCPUPerSessionUs += u.IdleCPUPerSessionUs / n
		m.Move = m.Move.plus(u.Move.over(n))
		m.RemotesPerMove += u.RemotesPerMove / n
		m.CPUPerMoveMs += u.CPUPerMoveMs / n
		m.CPUPerRemoteMs += u.CPUPerRemoteMs / n
		m.CPUPerDeafMs += u.CPUPerDeafMs / n
		m.TerminalBytesPerMove += u.TerminalBytesPerMove / n
		m.TerminalBytesPerSessionMin += u.TerminalBytesPerSessionMin / n
	}
	var sxx float64
	var sxy redisAmount
	for _, u := range us {
		dx := u.RemotesPerMove - m.RemotesPerMove
		sxx += dx * dx
		sxy = sxy.plus(u.Move.plus(m.Move.times(-1)).times(dx))
	}
	m.MovePerRemote = sxy.over(sxx)
	return m
}

// prediction is a run as a model's units predicted it, beside what was
// measured.
type prediction struct {
	IdleCommands predicted   `json:"idle_redis_commands_per_s"`
	MoveCommands predicted   `json:"moves_redis_commands_per_s"`
	MoveScripts  predicted   `json:"moves_redis_scripts_per_s"`
	MoveBytes    predicted   `json:"moves_redis_bytes_per_s"`
	MoveRedisCPU predicted   `json:"moves_redis_cpu_ms_per_s"`
	IdleCPU      []predicted `json:"idle_cpu_ms_per_s,omitempty"`
	MovesCPU     []predicted `json:"moves_cpu_ms_per_s,omitempty"`
}

// predicted is one figure, predicted and measured.
type predicted struct {
	Predicted float64 `json:"predicted"`
	Measured  float64 `json:"measured"`
}

// Off is how far the measurement is from the prediction, as a share of
// the prediction.
func (p predicted) Off() float64 {
	if p.Predicted == 0 {
		return math.Inf(1)
	}
	return (p.Measured - p.Predicted) / p.Predicted
}

// predict works out run r's Redis work and CPU from u, from r's own
// counts: its instances, sessions, and moves over the moves phase, each
// instance's own, heard and deaf, and how many instances heard each move.
func (u costUnits) predict(r costResult) prediction {
	idle, moves := r.phase("idle"), r.phase("moves")
	n, sessions, heard := float64(len(r.Instances)), 0.0, 0.0
	for _, in := range r.Instances {
		sessions += float64(in.sessions())
		heard += float64(in.Heard)
	}
	idleRate := u.BaseInstanceSec.times(n).plus(u.SessionMin.times(sessions / 60))
	playRate := idleRate.plus(u.moveAt(ratio(heard, float64(r.Moves))).times(perSec(float64(r.Moves), moves.Seconds)))
	idleGot, playGot := amountOf(idle.Redis).over(idle.Seconds), amountOf(moves.Redis).over(moves.Seconds)
	var p prediction
	p.IdleCommands = predicted{idleRate.Commands, idleGot.Commands}
	p.MoveCommands = predicted{playRate.Commands, playGot.Commands}
	p.MoveScripts = predicted{playRate.Scripts, playGot.Scripts}
	p.MoveBytes = predicted{playRate.Bytes, playGot.Bytes}
	p.MoveRedisCPU = predicted{playRate.CPUms, playGot.CPUms}
	if len(idle.CPUms) != len(r.Instances) || len(moves.CPUms) != len(r.Instances) {
		return p
	}
	for k, in := range r.Instances {
		rest := u.BaseCPUPerInstanceMsSec + float64(in.sessions())*u.IdleCPUPerSessionUs/1000
		play := rest + perSec(float64(in.Own)*u.CPUPerMoveMs+float64(in.Heard)*u.CPUPerRemoteMs+float64(in.Deaf)*u.CPUPerDeafMs, moves.Seconds)
		p.IdleCPU = append(p.IdleCPU, predicted{rest, perSec(idle.CPUms[k], idle.Seconds)})
		p.MovesCPU = append(p.MovesCPU, predicted{play, perSec(moves.CPUms[k], moves.Seconds)})
	}
	return p
}

// worst is the largest miss among ps, as a share of the prediction.
func worst(ps ...predicted) float64 {
	return slices.Max(append([]float64{0}, mapAbs(ps)...))
}

func mapAbs(ps []predicted) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = math.Abs(p.Off())
	}
	return out
}

func (r costResult) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "smokeload cost: %d players in %d rooms, %d watcher(s) a room, %d connected, over %d instance(s); %d moves, think %s\n\n",
		r.Players, r.Rooms, r.Watchers, r.Connected, len(r.Instances), r.Moves, r.Think)
	fmt.Fprintf(w, "%-9s %8s %9s %9s %11s %11s   %s\n", "phase", "seconds", "commands", "scripts", "bytes in", "bytes out", "CPU ms by instance")
	for _, p := range r.Phases {
		fmt.Fprintf(w, "%-9s %8.1f %9d %9d %11d %11d  ", p.Name, p.Seconds, p.Redis.total(), p.Redis.scripts(), p.Redis.InBytes, p.Redis.OutBytes)
		for _, c := range p.CPUms {
			fmt.Fprintf(w, " %7.0f", c)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n%-24s %8s %8s %8s %8s %8s\n", "instance", "players", "watchers", "own", "heard", "deaf")
	for _, in := range r.Instances {
		fmt.Fprintf(w, "%-24s %8d %8d %8d %8d %8d\n", in.Target, in.Players, in.Watchers, in.Own, in.Heard, in.Deaf)
	}
	u := r.Units
	amount := func(a redisAmount) string {
		return fmt.Sprintf("%.2f commands (%.2f scripts), %.0f bytes, %.3f ms Redis CPU", a.Commands, a.Scripts, a.Bytes, a.CPUms)
	}
	fmt.Fprintf(w, "\nper unit (Redis: commands run, scripts' own calls counted; bytes in and out):\n")
	fmt.Fprintf(w, "  an instance alone, a second: %s; CPU %.2f ms\n", amount(u.BaseInstanceSec), u.BaseCPUPerInstanceMsSec)
	fmt.Fprintf(w, "  a connect: %s\n", amount(u.Connect))
	fmt.Fprintf(w, "  an idle session, a minute: %s; CPU %.1f µs/s\n", amount(u.SessionMin), u.IdleCPUPerSessionUs)
	fmt.Fprintf(w, "  a seat claim (room, instance), a minute: %s\n", amount(u.ClaimMin))
	fmt.Fprintf(w, "  a move (heard by %.2f other instances): %s\n", u.RemotesPerMove, amount(u.Move))
	if u.MovePerRemote != (redisAmount{}) {
		fmt.Fprintf(w, "  each instance more that hears a move: %s\n", amount(u.MovePerRemote))
	}
	fmt.Fprintf(w, "  terminals: %.0f bytes a move, %.0f bytes an idle session a minute\n", u.TerminalBytesPerMove, u.TerminalBytesPerSessionMin)
	fmt.Fprintf(w, "  CPU: %.2f ms a move on the mover's instance, %.2f ms a remote change heard, %.3f ms a change of rooms it holds no part of\n",
		u.CPUPerMoveMs, u.CPUPerRemoteMs, u.CPUPerDeafMs)
	if p := r.Prediction; p != nil {
		r.writePrediction(w, *p)
	}
	for msg, n := range r.Refused {
		fmt.Fprintf(w, "refused %d: %s\n", n, msg)
	}
	for msg, n := range r.Errors {
		fmt.Fprintf(w, "error %d: %s\n", n, msg)
	}
	return nil
}

func (r costResult) writePrediction(w io.Writer, p prediction) {
	fmt.Fprintf(w, "\nmodel (%s) against this run:     predicted   measured      off\n", r.Model)
	row := func(label string, x predicted) {
		fmt.Fprintf(w, "  %-30s %10.1f %10.1f %+7.0f%%\n", label, x.Predicted, x.Measured, 100*x.Off())
	}
	row("Redis commands/s, idle", p.IdleCommands)
	row("Redis commands/s, moves", p.MoveCommands)
	row("Redis scripts/s, moves", p.MoveScripts)
	row("Redis bytes/s, moves", p.MoveBytes)
	row("Redis CPU ms/s, moves", p.MoveRedisCPU)
	all := []predicted{p.MoveCommands}
	for k, x := range p.MovesCPU {
		row(fmt.Sprintf("CPU ms/s, moves, %s", r.Instances[k].Target), x)
		all = append(all, x)
	}
	fmt.Fprintf(w, "  worst of Redis commands/s and CPU at play: %.0f%%\n", 100*worst(all...))
}
