package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// latency summarises samples in milliseconds.
type latency struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
	Max   float64 `json:"max_ms"`
	Mean  float64 `json:"mean_ms"`
}

func summarise(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	ds = slices.Sorted(slices.Values(ds))
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	// nearest rank: the smallest sample that p% of samples do not exceed
	rank := func(p float64) float64 { return millis(ds[max(int(math.Ceil(p*float64(len(ds))))-1, 0)]) }
	return latency{Count: len(ds), P50: rank(0.50), P99: rank(0.99), Max: millis(ds[len(ds)-1]), Mean: millis(sum / time.Duration(len(ds)))}
}

func millis(d time.Duration) float64 { return math.Round(float64(d)/1e4) / 1e2 }

// report is the whole run.
type report struct {
	Config  map[string]string `json:"config"`
	Results []result          `json:"results"`
}

func (r report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeTables prints the figures as Markdown tables, variants side by side.
func (r report) writeTables(w io.Writer) error {
	var b strings.Builder
	cfg := r.Config
	fmt.Fprintf(&b, "uicompare: %s rooms x 4 seats, %s moves; %s sessions (lobby: counter, game: table in rooms of 4); settle %s; CPU windows %s; game pace 1 move per room per %s\n\n",
		cfg["rooms"], cfg["moves"], cfg["sessions"], cfg["settle"], cfg["window"], cfg["pace"])

	row := func(cells ...string) { fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | ")) }
	head := func(cells ...string) {
		row(cells...)
		row(slices.Repeat([]string{"---"}, len(cells))...)
	}
	pp := func(l latency) string { return fmt.Sprintf("%.1f / %.1f / %.1f", l.P50, l.P99, l.Max) }
	ppp := func(l *latency) string {
		if l == nil {
			return "-"
		}
		return pp(*l)
	}
	bytes := func(m *bytesPerMove) string {
		if m == nil {
			return "-"
		}
		return fmt.Sprintf("%.0f (%d-%d)", m.Mean, m.Min, m.Max)
	}

	b.WriteString("Latency, ms (p50 / p99 / max)\n\n")
	head("variant", "key -> own frame, lobby", "key -> own frame, table", "move -> others, "+cfg["rooms"]+" rooms",
		"move -> others, game at pace", "bytes per move per watcher (mean, min-max)")
	for _, res := range r.Results {
		row(res.Variant.Name, ppp(res.Lobby.KeyOwn), pp(res.Rooms.KeyOwn), pp(res.Rooms.Others), ppp(res.Game.Others), bytes(&res.Rooms.Bytes))
	}

	fmt.Fprintf(&b, "\nCost per session at %s sessions\n\n", cfg["sessions"])
	head("variant", "RSS lobby", "RSS game", "heap lobby", "heap game", "goroutines", "CPU idle lobby", "CPU idle game", "CPU play game", "CPU per move")
	kb := func(n int64) string { return fmt.Sprintf("%.0f KB", float64(n)/1024) }
	us := func(f float64) string { return fmt.Sprintf("%.1f µs/s", f) }
	for _, res := range r.Results {
		row(res.Variant.Name, kb(res.Lobby.RSS), kb(res.Game.RSS), kb(res.Lobby.Heap), kb(res.Game.Heap),
			fmt.Sprintf("%.1f / %.1f", res.Lobby.Goroutines, res.Game.Goroutines),
			us(res.Lobby.IdleCPU), us(res.Game.IdleCPU), us(res.Game.PlayCPU),
			fmt.Sprintf("%.0f µs (rooms) / %.0f µs (game)", res.Rooms.CPUPerMove, res.Game.CPUPerMove))
	}

	b.WriteString("\nHeap in use per session, by allocating function (game screen)\n")
	for _, res := range r.Results {
		fmt.Fprintf(&b, "\n%s (%s)\n", res.Variant.Name, res.Game.Profile)
		for _, h := range res.Game.HeapTop {
			fmt.Fprintf(&b, "  %8.1f KB  %s\n", float64(h.BytesPerSession)/1024, h.Function)
		}
	}
	for _, res := range r.Results {
		if res.Game.Missed > 0 {
			fmt.Fprintf(&b, "\n%s: %d time(s) a watcher drew nothing after a move in the game at pace\n", res.Variant.Name, res.Game.Missed)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
