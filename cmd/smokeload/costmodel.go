package main

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// costUnits are a cost run's figures per unit: what the capacity model
// (docs/scaling.md) multiplies by a deployment's numbers. Redis's are
// commands ("ops") and bytes in plus out; the CPU's are an instance's.
// A figure that the run's layout could not isolate is zero.
type costUnits struct {
	// An instance with nobody connected: its heartbeats, subscription
	// pings and the like.
	BaseOpsPerInstanceSec   float64 `json:"base_ops_per_instance_s"`
	BaseBytesPerInstanceSec float64 `json:"base_bytes_per_instance_s"`
	BaseCPUPerInstanceMsSec float64 `json:"base_cpu_ms_per_instance_s"`
	// A player seated at a table, or a watcher watching: its connection,
	// room made or joined, first frame.
	OpsPerConnect   float64 `json:"ops_per_connect"`
	BytesPerConnect float64 `json:"bytes_per_connect"`
	// A session sitting idle, per minute, beyond the instances' own.
	OpsPerSessionMin    float64 `json:"ops_per_session_min"`
	BytesPerSessionMin  float64 `json:"bytes_per_session_min"`
	IdleCPUPerSessionUs float64 `json:"idle_cpu_us_per_session_s"`
	// A move, beyond the idle work: its commit and announcement, and the
	// catch-ups of the instances that hear it (as many as in the run).
	OpsPerMove   float64 `json:"ops_per_move"`
	BytesPerMove float64 `json:"bytes_per_move"`
	// RemotesPerMove is how many instances heard each move in the run:
	// OpsPerMove includes their catch-ups.
	RemotesPerMove float64 `json:"remotes_per_move"`
	// CPU: on the mover's instance per move (its keys, the commit, its
	// room's screens there); per remote change an instance hears for a
	// room it has a screen in; per change announced that it holds no
	// part of (on one channel for all rooms every instance hears all).
	CPUPerMoveMs   float64 `json:"cpu_ms_per_move"`
	CPUPerRemoteMs float64 `json:"cpu_ms_per_remote_change"`
	CPUPerDeafMs   float64 `json:"cpu_ms_per_deaf_change"`
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

func bytesOf(w redisWork) float64 { return float64(w.InBytes + w.OutBytes) }

// units works the per-unit figures out of the phases: each phase's work
// less what the phase before it does at rest (the baseline's rate under
// the idle phase, the idle phase's under the moves).
func (r costResult) units() costUnits {
	base, conn, idle, moves := r.phase("baseline"), r.phase("connect"), r.phase("idle"), r.phase("moves")
	n, sessions := float64(len(r.Instances)), 0.0
	for _, in := range r.Instances {
		sessions += float64(in.sessions())
	}
	var u costUnits
	u.BaseOpsPerInstanceSec = ratio(perSec(float64(base.Redis.total()), base.Seconds), n)
	u.BaseBytesPerInstanceSec = ratio(perSec(bytesOf(base.Redis), base.Seconds), n)
	u.OpsPerConnect = ratio(float64(conn.Redis.total()), float64(r.Connected))
	u.BytesPerConnect = ratio(bytesOf(conn.Redis), float64(r.Connected))
	above := func(w, rate, secs float64) float64 { return w - rate*secs }
	u.OpsPerSessionMin = 60 * ratio(perSec(above(float64(idle.Redis.total()), n*u.BaseOpsPerInstanceSec, idle.Seconds), idle.Seconds), sessions)
	u.BytesPerSessionMin = 60 * ratio(perSec(above(bytesOf(idle.Redis), n*u.BaseBytesPerInstanceSec, idle.Seconds), idle.Seconds), sessions)
	u.OpsPerMove = ratio(above(float64(moves.Redis.total()), perSec(float64(idle.Redis.total()), idle.Seconds), moves.Seconds), float64(r.Moves))
	u.BytesPerMove = ratio(above(bytesOf(moves.Redis), perSec(bytesOf(idle.Redis), idle.Seconds), moves.Seconds), float64(r.Moves))
	heard := 0
	for _, in := range r.Instances {
		heard += in.Heard
	}
	u.RemotesPerMove = ratio(float64(heard), float64(r.Moves))
	if len(base.CPUms) != len(r.Instances) || len(moves.CPUms) != len(r.Instances) {
		return u
	}
	var baseCPU, idleAbove, mv, mvN, rm, rmN, df, dfN float64
	for k, in := range r.Instances {
		baseRate, idleRate := perSec(base.CPUms[k], base.Seconds), perSec(idle.CPUms[k], idle.Seconds)
		baseCPU += baseRate
		idleAbove += idleRate - baseRate
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
	u.IdleCPUPerSessionUs = 1000 * ratio(idleAbove, sessions)
	u.CPUPerMoveMs, u.CPUPerRemoteMs, u.CPUPerDeafMs = ratio(mv, mvN), ratio(rm, rmN), ratio(df, dfN)
	return u
}

// prediction is a run as a model's units predicted it, beside what was
// measured.
type prediction struct {
	IdleOps  predicted   `json:"idle_redis_ops_per_s"`
	MoveOps  predicted   `json:"moves_redis_ops_per_s"`
	MoveNet  predicted   `json:"moves_redis_bytes_per_s"`
	IdleCPU  []predicted `json:"idle_cpu_ms_per_s,omitempty"`
	MovesCPU []predicted `json:"moves_cpu_ms_per_s,omitempty"`
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
// counts: its instances, sessions, and moves over the moves phase.
// Each move's catch-ups are scaled from the model's remotes per move to
// r's.
func (u costUnits) predict(r costResult) prediction {
	idle, moves := r.phase("idle"), r.phase("moves")
	n, sessions, heard := float64(len(r.Instances)), 0.0, 0.0
	for _, in := range r.Instances {
		sessions += float64(in.sessions())
		heard += float64(in.Heard)
	}
	idleOps := n*u.BaseOpsPerInstanceSec + sessions*u.OpsPerSessionMin/60
	idleNet := n*u.BaseBytesPerInstanceSec + sessions*u.BytesPerSessionMin/60
	mps := perSec(float64(r.Moves), moves.Seconds)
	var p prediction
	p.IdleOps = predicted{idleOps, perSec(float64(idle.Redis.total()), idle.Seconds)}
	p.MoveOps = predicted{idleOps + mps*u.OpsPerMove, perSec(float64(moves.Redis.total()), moves.Seconds)}
	p.MoveNet = predicted{idleNet + mps*u.BytesPerMove, perSec(bytesOf(moves.Redis), moves.Seconds)}
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
	fmt.Fprintf(w, "%-9s %8s %10s %12s %12s   %s\n", "phase", "seconds", "commands", "bytes in", "bytes out", "CPU ms by instance")
	for _, p := range r.Phases {
		fmt.Fprintf(w, "%-9s %8.1f %10d %12d %12d  ", p.Name, p.Seconds, p.Redis.total(), p.Redis.InBytes, p.Redis.OutBytes)
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
	fmt.Fprintf(w, "\nper unit:\n")
	fmt.Fprintf(w, "  an instance, nobody connected: %.1f commands/s, %.0f bytes/s, %.2f ms CPU/s\n",
		u.BaseOpsPerInstanceSec, u.BaseBytesPerInstanceSec, u.BaseCPUPerInstanceMsSec)
	fmt.Fprintf(w, "  a connect: %.1f commands, %.0f bytes\n", u.OpsPerConnect, u.BytesPerConnect)
	fmt.Fprintf(w, "  an idle session, a minute: %.2f commands, %.0f bytes; CPU %.1f µs/s\n",
		u.OpsPerSessionMin, u.BytesPerSessionMin, u.IdleCPUPerSessionUs)
	fmt.Fprintf(w, "  a move (heard by %.2f other instances): %.1f commands, %.0f bytes\n", u.RemotesPerMove, u.OpsPerMove, u.BytesPerMove)
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
	row("Redis commands/s, idle", p.IdleOps)
	row("Redis commands/s, moves", p.MoveOps)
	row("Redis bytes/s, moves", p.MoveNet)
	all := []predicted{p.MoveOps}
	for k, x := range p.MovesCPU {
		row(fmt.Sprintf("CPU ms/s, moves, %s", r.Instances[k].Target), x)
		all = append(all, x)
	}
	fmt.Fprintf(w, "  worst of Redis commands/s and CPU at play: %.0f%%\n", 100*worst(all...))
}
