package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisWork is what Redis did up to one moment, summed over the primaries
// asked: the commands run (INFO commandstats, by command; Redis 7 counts
// a script's own calls there, and in total_commands_processed too, so a
// script is its EVALSHA and every command it ran), and the bytes read
// and written (total_net_input_bytes and total_net_output_bytes, which
// leave out replication's own traffic).
type redisWork struct {
	Commands map[string]int64 `json:"commands"`
	// CPUSeconds is the primaries' own CPU (INFO cpu: used_cpu_sys and
	// used_cpu_user, the main thread's and its helpers').
	CPUSeconds float64 `json:"cpu_s"`
	InBytes    int64   `json:"in_bytes"`
	OutBytes   int64   `json:"out_bytes"`
	Primaries  int     `json:"primaries"`
}

// scripts is the scripts run, each counted once.
func (w redisWork) scripts() int64 {
	return w.Commands["evalsha"] + w.Commands["eval"] + w.Commands["fcall"]
}

// total is the commands of every kind.
func (w redisWork) total() int64 {
	var n int64
	for _, c := range w.Commands {
		n += c
	}
	return n
}

// minus is the work done between then and w.
func (w redisWork) minus(then redisWork) redisWork {
	d := redisWork{Commands: map[string]int64{}, CPUSeconds: w.CPUSeconds - then.CPUSeconds, InBytes: w.InBytes - then.InBytes,
		OutBytes: w.OutBytes - then.OutBytes, Primaries: w.Primaries}
	for name, n := range w.Commands {
		if n -= then.Commands[name]; n != 0 {
			d.Commands[name] = n
		}
	}
	return d
}

// redisMeter reads the work of a set of Redis nodes: a single node, or
// every node of a cluster (replicas are asked and skipped, so a failover
// that swaps roles is followed).
type redisMeter struct {
	nodes []*redis.Client
	// ours is, per node, our own INFO calls' bytes so far: the
	// questions in, the answers out.
	oursIn, oursOut []int64
}

func newRedisMeter(urls []string) (*redisMeter, error) {
	m := &redisMeter{}
	for _, u := range urls {
		opt, err := redis.ParseURL(u)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("--redis-info %s: %w", u, err)
		}
		m.nodes = append(m.nodes, redis.NewClient(opt))
	}
	m.oursIn, m.oursOut = make([]int64, len(urls)), make([]int64, len(urls))
	return m, nil
}

func (m *redisMeter) Close() {
	for _, n := range m.nodes {
		n.Close()
	}
}

// read asks every node for its INFO and sums the primaries'. Our own
// INFO calls are left out: their command, and the bytes of their
// questions and answers.
func (m *redisMeter) read(ctx context.Context) (redisWork, error) {
	w := redisWork{Commands: map[string]int64{}}
	for i, n := range m.nodes {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		text, err := n.Info(ctx, "replication", "cpu", "commandstats", "stats").Result()
		cancel()
		if err != nil {
			return w, fmt.Errorf("INFO from %s: %w", n.Options().Addr, err)
		}
		one, primary, err := parseInfo(text)
		if err != nil {
			return w, fmt.Errorf("INFO from %s: %w", n.Options().Addr, err)
		}
		// The question is counted as it arrives, the answer once sent.
		m.oursIn[i] += infoQuestion
		one.InBytes -= m.oursIn[i]
		one.OutBytes -= m.oursOut[i]
		m.oursOut[i] += int64(len(text)) + infoAnswerFrame
		if !primary {
			continue
		}
		w.Primaries++
		w.CPUSeconds += one.CPUSeconds
		w.InBytes += one.InBytes
		w.OutBytes += one.OutBytes
		for name, c := range one.Commands {
			w.Commands[name] += c
		}
	}
	if w.Primaries == 0 {
		return w, errors.New("--redis-info: none of the nodes is a primary")
	}
	return w, nil
}

// What one INFO call adds to the byte counts besides its answer's text:
// the question ("INFO replication cpu commandstats stats" in RESP), and
// the answer's framing.
const (
	infoQuestion    = 71
	infoAnswerFrame = 15
)

// parseInfo reads INFO's text: the commands by name, the bytes, and
// whether the node is a primary.
func parseInfo(text string) (w redisWork, primary bool, err error) {
	w.Commands = map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(text))
	found := 0
	for sc.Scan() {
		key, value, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok {
			continue
		}
		switch {
		case key == "role":
			primary = value == "master"
			found++
		case key == "used_cpu_sys" || key == "used_cpu_user":
			var f float64
			f, err = strconv.ParseFloat(value, 64)
			w.CPUSeconds += f
		case key == "total_net_input_bytes":
			w.InBytes, err = strconv.ParseInt(value, 10, 64)
			found++
		case key == "total_net_output_bytes":
			w.OutBytes, err = strconv.ParseInt(value, 10, 64)
			found++
		case strings.HasPrefix(key, "cmdstat_"):
			name := strings.TrimPrefix(key, "cmdstat_")
			calls, _, _ := strings.Cut(strings.TrimPrefix(value, "calls="), ",")
			var n int64
			n, err = strconv.ParseInt(calls, 10, 64)
			if name != "info" {
				w.Commands[name] = n
			}
		}
		if err != nil {
			return w, false, fmt.Errorf("INFO line %q: %w", sc.Text(), err)
		}
	}
	if found != 3 {
		return w, false, errors.New("INFO lacks role, total_net_input_bytes or total_net_output_bytes")
	}
	return w, primary, nil
}

// clockTicks is Linux's USER_HZ, the unit of /proc/PID/stat's times: 100
// on every architecture Linux runs today (sysconf(_SC_CLK_TCK) would need
// cgo to ask).
const clockTicks = 100

// processCPU is the CPU time process pid has used so far, user and
// system, from /proc/PID/stat.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("the CPU of process %d: %w", pid, err)
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime (fields 14 and 15) of a /proc/PID/stat
// line; the command's name in parentheses may hold spaces, so fields are
// counted after its closing parenthesis.
func parseStat(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, fmt.Errorf("a /proc stat line without the command's name: %q", line)
	}
	f := strings.Fields(line[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("a /proc stat line with %d fields", len(f)+2)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("a /proc stat line's times: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
