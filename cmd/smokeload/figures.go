package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// probe reads what the server pays for its sessions from its metrics
// listener: the Prometheus text at /metrics and, where served, Go's
// profiles at /debug/pprof/.
type probe struct {
	base string // http://host:port
	// own is our own server process (child.go), which frees memory on
	// request, so memory is compared after a collection each time.
	own bool
}

// newProbe reads the metrics at metricsURL (http://host:port/metrics).
func newProbe(metricsURL string, own bool) probe {
	return probe{base: strings.TrimSuffix(metricsURL, "/metrics"), own: own}
}

// sample is the server's figures at one moment.
type sample struct {
	at time.Time
	m  map[string]float64
}

// read returns the server's figures; with free (our own server only) it
// first collects garbage and returns freed memory to the OS, so the
// resident set and the heap are what is live.
func (p probe) read(free bool) (sample, error) {
	if p.base == "" {
		return sample{}, errors.New("no metrics URL")
	}
	if free && p.own {
		resp, err := http.Post(p.base+"/debug/free", "", nil)
		if err != nil {
			return sample{}, err
		}
		resp.Body.Close()
	}
	m, err := scrape(p.base + "/metrics")
	return sample{at: time.Now(), m: m}, err
}

// saveProfiles writes the server's heap profile (after a collection) and
// goroutine profile, as pprof files and the goroutines as text too, to
// dir/heap-NAME.pb.gz, goroutine-NAME.pb.gz and goroutine-NAME.txt.
func (p probe) saveProfiles(dir, name string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for file, path := range map[string]string{
		"heap-" + name + ".pb.gz":      "/debug/pprof/heap?gc=1",
		"goroutine-" + name + ".pb.gz": "/debug/pprof/goroutine",
		"goroutine-" + name + ".txt":   "/debug/pprof/goroutine?debug=1",
	} {
		resp, err := http.Get(p.base + path)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return fmt.Errorf("%s%s: %s (serve it with --pprof)", p.base, path, resp.Status)
		}
		f, err := os.Create(filepath.Join(dir, file))
		if err == nil {
			_, err = io.Copy(f, resp.Body)
			err = errors.Join(err, f.Close())
		}
		resp.Body.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// saveCPUProfile writes the server's CPU profile over the next d to file.
func (p probe) saveCPUProfile(file string, d time.Duration) error {
	url := fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", p.base, max(1, int(d.Round(time.Second).Seconds())))
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s (serve it with --pprof)", url, resp.Status)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, resp.Body)
	return errors.Join(err, f.Close())
}

// scrape reads a Prometheus text endpoint into name → value, summing a
// metric's labelled series.
func scrape(url string) (map[string]float64, error) {
	if url == "" {
		return nil, errors.New("no metrics URL")
	}
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		name, labels, _ := strings.Cut(name, "{")
		var v float64
		if _, err := fmt.Sscan(value, &v); err == nil {
			out[name] += v
			if _, le, ok := strings.Cut(labels, `le="`); ok && strings.HasSuffix(name, "_bucket") {
				le, _, _ = strings.Cut(le, `"`)
				out[name+"{le="+le+"}"] += v // a histogram's bucket, by its bound
			}
		}
	}
	return out, sc.Err()
}

// serverCost is what the server pays per session, from its figures with
// no sessions (before), with every session seated and drawn (seated),
// after an idle wait (idled), then after a collection (held), and after
// play (played).
type serverCost struct {
	RSSKB  float64 `json:"rss_per_session_kb,omitempty"`
	HeapKB float64 `json:"heap_per_session_kb,omitempty"`
	// HeapSpansKB is the heap's spans in use: HeapKB and the free room
	// in them. RuntimeKB is the runtime's own books (spans, the
	// collector's, profiling's, others).
	HeapSpansKB float64 `json:"heap_spans_per_session_kb,omitempty"`
	RuntimeKB   float64 `json:"runtime_per_session_kb,omitempty"`
	StackKB     float64 `json:"stack_per_session_kb,omitempty"`
	Goroutines  float64 `json:"goroutines_per_session,omitempty"`
	// CPU in microseconds per second per session: 1,000 would be one
	// core for 1,000 sessions.
	IdleCPU float64 `json:"idle_cpu_us_per_s,omitempty"`
	PlayCPU float64 `json:"play_cpu_us_per_s,omitempty"`
}

func costOf(before, seated, idled, held, played sample, n int) serverCost {
	if before.m == nil || held.m == nil || n == 0 {
		return serverCost{}
	}
	per := func(name string, unit float64) float64 {
		return roundTenth((held.m[name] - before.m[name]) / float64(n) / unit)
	}
	c := serverCost{RSSKB: per("process_resident_memory_bytes", 1024), HeapKB: per("go_memstats_heap_alloc_bytes", 1024),
		HeapSpansKB: per("go_memstats_heap_inuse_bytes", 1024), StackKB: per("go_memstats_stack_inuse_bytes", 1024),
		Goroutines: per("go_goroutines", 1)}
	for _, m := range []string{"go_memstats_mspan_inuse_bytes", "go_memstats_gc_sys_bytes", "go_memstats_other_sys_bytes", "go_memstats_buck_hash_sys_bytes"} {
		c.RuntimeKB += per(m, 1024)
	}
	c.RuntimeKB = roundTenth(c.RuntimeKB)
	cpu := func(from, to sample) float64 {
		secs := to.at.Sub(from.at).Seconds()
		if from.m == nil || to.m == nil || secs <= 0 {
			return 0
		}
		return roundTenth((to.m["process_cpu_seconds_total"] - from.m["process_cpu_seconds_total"]) / secs / float64(n) * 1e6)
	}
	c.IdleCPU = cpu(seated, idled)
	c.PlayCPU = cpu(held, played)
	return c
}

// quantilesOf reads histogram name's samples between two figures from
// its buckets: their count and p50, p90 and p99 in milliseconds, each
// interpolated within its bucket as Prometheus's histogram_quantile does
// (a quantile in the last, unbounded bucket is its lower bound).
func quantilesOf(name string, from, to sample) stats {
	if from.m == nil || to.m == nil {
		return stats{}
	}
	type bucket struct{ le, n float64 }
	var bs []bucket
	prefix := name + "_bucket{le="
	for k, v := range to.m {
		if bound, ok := strings.CutPrefix(k, prefix); ok {
			var le float64
			if bound = strings.TrimSuffix(bound, "}"); bound == "+Inf" {
				le = math.Inf(1)
			} else if _, err := fmt.Sscan(bound, &le); err != nil {
				continue
			}
			bs = append(bs, bucket{le, v - from.m[k]})
		}
	}
	slices.SortFunc(bs, func(a, b bucket) int { return cmp.Compare(a.le, b.le) })
	if len(bs) == 0 || bs[len(bs)-1].n <= 0 {
		return stats{}
	}
	total := bs[len(bs)-1].n
	q := func(p float64) float64 {
		rank, lower, below := p*total, 0.0, 0.0
		for _, b := range bs {
			if b.n >= rank {
				if math.IsInf(b.le, 1) {
					return lower * 1000
				}
				return (lower + (b.le-lower)*(rank-below)/max(b.n-below, 1)) * 1000
			}
			lower, below = b.le, b.n
		}
		return lower * 1000
	}
	return stats{Count: int(total), P50: roundTenth(q(.5)), P90: roundTenth(q(.9)), P99: roundTenth(q(.99))}
}
