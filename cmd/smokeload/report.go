package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"
)

// What is measured for each move, from the moment its line is written to
// the mover's play session on instance A.
const (
	frameCross  = "frame_cross"  // first bytes of the redraw on a terminal watching on B
	frameSame   = "frame_same"   // the same on a terminal watching on A
	updateCross = "update_cross" // the play --watch update showing the move, on B
	updateSame  = "update_same"  // the same on A
	moverOK     = "mover_ok"     // the mover's own {"ok":true} on A
)

// metrics in the order the report shows them, with their labels.
var metrics = []struct{ key, label string }{
	{frameCross, "frame  A→B  cross-instance"},
	{frameSame, "frame  A→A  same instance"},
	{updateCross, "update A→B  cross-instance"},
	{updateSame, "update A→A  same instance"},
	{moverOK, "ok     A    mover's own"},
}

// recorder collects samples from every room.
type recorder struct {
	mu      sync.Mutex
	samples map[string][]time.Duration
	moves   int
	games   int
	missed  int // moves after which a watching terminal drew nothing
	// Capacity mode's samples censored at their window (capacity.go).
	censored int // others' frames after a move played
	unseen   int // enters whose own screen drew nothing
	// roomMoves counts capacity mode's moves played, by room.
	roomMoves map[uint64]int
}

func newRecorder() *recorder {
	return &recorder{samples: map[string][]time.Duration{}, roomMoves: map[uint64]int{}}
}

// move records one measured move's samples.
func (r *recorder) move(samples map[string]time.Duration, missed int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.moves++
	r.missed += missed
	for k, d := range samples {
		r.samples[k] = append(r.samples[k], d)
	}
}

func (r *recorder) game() {
	r.mu.Lock()
	r.games++
	r.mu.Unlock()
}

// stats summarises one metric; times are milliseconds.
type stats struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50_ms"`
	P90   float64 `json:"p90_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
	Mean  float64 `json:"mean_ms"`
}

func summarise(ds []time.Duration) stats {
	if len(ds) == 0 {
		return stats{}
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return stats{
		Count: len(ds),
		P50:   ms(percentile(ds, 50)),
		P90:   ms(percentile(ds, 90)),
		P99:   ms(percentile(ds, 99)),
		Max:   ms(ds[len(ds)-1]),
		Mean:  ms(sum / time.Duration(len(ds))),
	}
}

// percentile is the nearest-rank percentile of sorted ds: the smallest
// sample at least p% of the samples do not exceed.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(i, 0)]
}

func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

// report is smokeload's result, printed as a table or as JSON.
type report struct {
	// Mode is "own" (redis-server and two instances started here) or
	// "targets" (instances the operator runs).
	Mode      string           `json:"mode"`
	Instances []string         `json:"instances"`
	Redis     string           `json:"redis,omitempty"`
	Rooms     int              `json:"rooms"`
	Moves     int              `json:"moves"`
	Games     int              `json:"games"`
	Seconds   float64          `json:"seconds"`
	Bot       string           `json:"bot"`
	Settle    string           `json:"settle"`
	Terminal  string           `json:"terminal"`
	Latency   map[string]stats `json:"latency"`
	// Ratio is cross-instance over same-instance, per metric and percentile.
	Ratio map[string]float64 `json:"ratio"`
	// MissedFrames counts watching terminals that drew nothing after a
	// move (a move that changed nothing they show).
	MissedFrames int `json:"missed_frames"`
}

func (r *recorder) report(c config, instances []string, redis string, elapsed time.Duration) report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := report{Mode: "own", Instances: instances, Redis: redis, Rooms: c.rooms, Moves: r.moves, Games: r.games,
		Seconds: math.Round(elapsed.Seconds()*10) / 10, Bot: c.bot, Settle: c.settle.String(),
		Terminal: fmt.Sprintf("%dx%d", c.width, c.height), Latency: map[string]stats{}, Ratio: map[string]float64{},
		MissedFrames: r.missed}
	if len(c.targets) > 0 {
		rep.Mode = "targets"
	}
	for _, m := range metrics {
		rep.Latency[m.key] = summarise(r.samples[m.key])
	}
	for _, kind := range []string{"frame", "update"} {
		cross, same := rep.Latency[kind+"_cross"], rep.Latency[kind+"_same"]
		if same.P50 > 0 && same.P99 > 0 {
			rep.Ratio[kind+"_p50"] = math.Round(cross.P50/same.P50*100) / 100
			rep.Ratio[kind+"_p99"] = math.Round(cross.P99/same.P99*100) / 100
		}
	}
	return rep
}

func (rep report) writeJSON(w io.Writer) error { return printJSON(w, rep) }

// printJSON writes v as indented JSON, as every smokeload report is.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (rep report) writeTable(w io.Writer) error {
	where := "two instances started here over their own redis-server"
	if rep.Mode == "targets" {
		where = "instances A and B given by --targets"
	}
	fmt.Fprintf(w, "smokeload: %d moves in %d games (%d room(s) at once) on %s, %.1fs\n", rep.Moves, rep.Games, rep.Rooms, where, rep.Seconds)
	fmt.Fprintf(w, "  A %s   B %s", rep.Instances[0], rep.Instances[1])
	if rep.Redis != "" {
		fmt.Fprintf(w, "   redis %s", rep.Redis)
	}
	fmt.Fprintf(w, "\n\nfrom a move sent on A to:             count      p50      p90      p99      max\n")
	for _, m := range metrics {
		s := rep.Latency[m.key]
		fmt.Fprintf(w, "  %-32s %8d %6.1fms %6.1fms %6.1fms %6.1fms\n", m.label, s.Count, s.P50, s.P90, s.P99, s.Max)
	}
	fmt.Fprintln(w)
	for _, kind := range []string{"frame", "update"} {
		if p50, ok := rep.Ratio[kind+"_p50"]; ok {
			fmt.Fprintf(w, "cross/same %-6s p50 %.2fx  p99 %.2fx\n", kind, p50, rep.Ratio[kind+"_p99"])
		}
	}
	if rep.MissedFrames > 0 {
		fmt.Fprintf(w, "%d time(s) a watching terminal drew nothing after a move\n", rep.MissedFrames)
	}
	_, err := fmt.Fprintf(w, "(frames: first bytes of the redraw on a %s PTY `watch`; settle %s; moves by the %s bot)\n", rep.Terminal, rep.Settle, rep.Bot)
	return err
}
