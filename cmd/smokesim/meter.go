package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// work is what the cluster's primaries did up to one moment, summed: the
// commands run by name (INFO commandstats; Redis 7 counts a script's own
// calls there too, so a script is its EVALSHA and every command it ran),
// the bytes read and written (total_net_input_bytes and
// total_net_output_bytes, replication's own traffic left out) and their
// CPU (used_cpu_sys + used_cpu_user).
type work struct {
	Commands map[string]int64 `json:"commands"`
	In       int64            `json:"in_bytes"`
	Out      int64            `json:"out_bytes"`
	CPU      float64          `json:"cpu_s"`
}

func (w work) total() int64 {
	var n int64
	for _, c := range w.Commands {
		n += c
	}
	return n
}

func (w work) bytes() int64 { return w.In + w.Out }

// minus is the work done between then and w.
func (w work) minus(then work) work {
	d := work{Commands: map[string]int64{}, In: w.In - then.In, Out: w.Out - then.Out, CPU: w.CPU - then.CPU}
	for name, n := range w.Commands {
		if n -= then.Commands[name]; n != 0 {
			d.Commands[name] = n
		}
	}
	return d
}

// scaled is w times f (a rate's share of a window, say).
func (w work) scaled(f float64) work {
	d := work{Commands: map[string]int64{}, In: int64(float64(w.In) * f), Out: int64(float64(w.Out) * f), CPU: w.CPU * f}
	for name, n := range w.Commands {
		d.Commands[name] = int64(float64(n) * f)
	}
	return d
}

// meter reads the primaries' work.
type meter struct {
	nodes []*redis.Client
}

func newMeter(addrs []string) *meter {
	m := &meter{}
	for _, a := range addrs {
		m.nodes = append(m.nodes, redis.NewClient(&redis.Options{Addr: a}))
	}
	return m
}

func (m *meter) close() {
	for _, n := range m.nodes {
		n.Close()
	}
}

// read sums every primary's work so far. Its own INFO calls are counted
// by Redis too (one "info" per node a read): they are taken out.
func (m *meter) read(ctx context.Context) (work, error) {
	w := work{Commands: map[string]int64{}}
	for _, n := range m.nodes {
		info, err := n.Info(ctx, "commandstats", "stats", "cpu").Result()
		if err != nil {
			return work{}, fmt.Errorf("INFO of %s: %w", n.Options().Addr, err)
		}
		sc := bufio.NewScanner(strings.NewReader(info))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			name, rest, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			switch {
			case strings.HasPrefix(name, "cmdstat_"):
				calls, _, _ := strings.Cut(strings.TrimPrefix(rest, "calls="), ",")
				n, _ := strconv.ParseInt(calls, 10, 64)
				w.Commands[strings.TrimPrefix(name, "cmdstat_")] += n
			case name == "total_net_input_bytes":
				n, _ := strconv.ParseInt(rest, 10, 64)
				w.In += n
			case name == "total_net_output_bytes":
				n, _ := strconv.ParseInt(rest, 10, 64)
				w.Out += n
			case name == "used_cpu_sys", name == "used_cpu_user":
				f, _ := strconv.ParseFloat(rest, 64)
				w.CPU += f
			}
		}
	}
	return w, nil
}
