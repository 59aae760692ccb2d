package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
)

// Comparing renderers: with --frames tick,change capacity mode runs once
// per way of drawing, --repeat times, the ways alternating, each on a
// server process of its own, and reports them side by side. Alternating
// in one invocation spreads whatever else the machine is doing over all
// of them alike.

// comparison is the runs of one --frames comparison.
type comparison struct {
	Frames []string    `json:"frames"`
	Runs   []capResult `json:"runs"`
}

// compare runs capacity mode for each of c.frames, c.repeat times.
func compare(ctx context.Context, c config, log *slog.Logger) (comparison, error) {
	cmp := comparison{Frames: c.frames}
	for i := range c.repeat {
		for _, fr := range c.frames {
			run := c
			run.label = fmt.Sprintf("%s-%d", fr, i+1)
			run.serverEnv = append(slices.Clip(c.serverEnv), framesEnv+"="+fr)
			log.Info("run", "frames", fr, "repeat", i+1)
			res, err := capacity(ctx, run, log)
			if err != nil {
				return cmp, fmt.Errorf("--frames %s, run %d: %w", fr, i+1, err)
			}
			res.Frames = fr
			cmp.Runs = append(cmp.Runs, res)
		}
	}
	return cmp, nil
}

func (cmp comparison) writeJSON(w io.Writer) error { return printJSON(w, cmp) }

// writeTable prints each figure's median over the runs of each way, with
// the range when there were several.
func (cmp comparison) writeTable(w io.Writer) error {
	if len(cmp.Runs) == 0 {
		return nil
	}
	r0 := cmp.Runs[0]
	fmt.Fprintf(w, "smokeload capacity, frames side by side: %d players on the %s screen (%d rooms), think %s, %d run(s) of each, alternating\n",
		r0.Sessions, r0.Screen, r0.Rooms, r0.Think, len(cmp.Runs)/len(cmp.Frames))
	fmt.Fprintf(w, "median (min-max) over the runs; latency in ms, memory per session, CPU in µs per second per session\n\n")
	fmt.Fprintf(w, "%-32s", "")
	for _, fr := range cmp.Frames {
		fmt.Fprintf(w, " %-24s", fr)
	}
	fmt.Fprintln(w)
	rows := []struct {
		label string
		get   func(capResult) float64
	}{
		{"key to own frame p50", func(r capResult) float64 { return r.KeyToOwn.P50 }},
		{"key to own frame p99", func(r capResult) float64 { return r.KeyToOwn.P99 }},
		{"move to others' frame p50", func(r capResult) float64 { return r.MoveToRest.P50 }},
		{"move to others' frame p99", func(r capResult) float64 { return r.MoveToRest.P99 }},
		{"server RSS KB", func(r capResult) float64 { return r.RSSKB }},
		{"Go heap KB", func(r capResult) float64 { return r.HeapKB }},
		{"stacks KB", func(r capResult) float64 { return r.StackKB }},
		{"goroutines", func(r capResult) float64 { return r.Goroutines }},
		{"CPU idle µs/s", func(r capResult) float64 { return r.IdleCPU }},
		{"CPU at play µs/s", func(r capResult) float64 { return r.PlayCPU }},
		{"CPU per move ms", func(r capResult) float64 { return r.CPUPerMoveMs }},
	}
	for _, row := range rows {
		fmt.Fprintf(w, "%-32s", row.label)
		for _, fr := range cmp.Frames {
			var v []float64
			for _, r := range cmp.Runs {
				if r.Frames == fr {
					v = append(v, row.get(r))
				}
			}
			slices.Sort(v)
			cell := fmt.Sprintf("%.1f", v[len(v)/2])
			if len(v) > 1 {
				cell += fmt.Sprintf(" (%.1f-%.1f)", v[0], v[len(v)-1])
			}
			fmt.Fprintf(w, " %-24s", cell)
		}
		fmt.Fprintln(w)
	}
	var problems []string
	for _, r := range cmp.Runs {
		if r.Connected < r.Sessions || r.Panics > 0 || len(r.Errors) > 0 || r.KeyMisses > 0 {
			problems = append(problems, fmt.Sprintf("%s: seated %d of %d, %d keys never redrawn, errors %v, panics %d",
				r.Frames, r.Connected, r.Sessions, r.KeyMisses, r.Errors, r.Panics))
		}
	}
	if len(problems) > 0 {
		fmt.Fprintf(w, "\n%s\n", strings.Join(problems, "\n"))
	}
	_, err := fmt.Fprintln(w)
	return err
}
