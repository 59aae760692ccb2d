// Command smokeflood floods a running smokestack server the way the
// attacks in docs/security.md did, and reports what the flood cost the
// server, read from its metrics, and how long another player's command
// took meanwhile:
//
//	smokeflood --flood input    # 20 connections × 10 `play CODE --watch`, 2 MiB of newlines each
//	smokeflood --flood sessions --conns 1 --duration 30s   # sessions opened as fast as they are refused
//
// The server must run with --metrics-listen (say 127.0.0.1:9222). Every
// connection comes from this machine, so it counts against one
// address's limits, as one attacker's would.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "smokeflood:", err)
		os.Exit(1)
	}
}

type config struct {
	addr, metrics, flood string
	probeFrom            string
	conns, sessions      int
	size                 int
	duration, hold       time.Duration
}

func run(ctx context.Context, args []string) error {
	var c config
	fs := flag.NewFlagSet("smokeflood", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:2222", "the server's SSH address")
	fs.StringVar(&c.metrics, "metrics", "http://127.0.0.1:9222/metrics", "the server's metrics URL")
	fs.StringVar(&c.probeFrom, "probe-from", "127.0.0.2", "the local address the probing player connects from, apart from the flood's")
	fs.StringVar(&c.flood, "flood", "input", "input (sessions sent more than they read) or sessions (sessions opened past the limits)")
	fs.IntVar(&c.conns, "conns", 20, "flooding connections")
	fs.IntVar(&c.sessions, "sessions", 10, "with --flood input, `play CODE --watch` sessions per connection")
	fs.IntVar(&c.size, "size", 2<<20, "with --flood input, bytes of newlines sent to each session")
	fs.DurationVar(&c.duration, "duration", 30*time.Second, "with --flood sessions, how long to flood")
	fs.DurationVar(&c.hold, "hold", 10*time.Second, "with --flood input, how long to hold the sessions open after sending")
	if err := fs.Parse(args); err != nil {
		return err
	}
	probe, err := dialFrom(c.addr, c.probeFrom)
	if err != nil {
		return fmt.Errorf("the probing player: %w", err)
	}
	defer probe.Close()
	p := &prober{addr: c.addr, from: c.probeFrom}
	defer p.close()
	idle, err := scrape(c.metrics)
	if err != nil {
		return err
	}
	p.sample(ctx, 10) // the latency at rest
	quiet := p.take()
	peak := &peakRSS{}
	sampling, stopSampling := context.WithCancel(ctx)
	var bg sync.WaitGroup
	bg.Go(func() { peak.follow(sampling, c.metrics) })
	bg.Go(func() { p.run(sampling) })
	start := time.Now()
	var note string
	switch c.flood {
	case "input", "input-peak":
		note, err = floodInput(ctx, c, probe)
	case "sessions":
		note, err = floodSessions(ctx, c)
	default:
		err = fmt.Errorf("--flood %q: choose input or sessions", c.flood)
	}
	took := time.Since(start)
	stopSampling()
	bg.Wait()
	if err != nil {
		return err
	}
	after, err := scrape(c.metrics)
	if err != nil {
		return err
	}
	during := p.take()
	fmt.Printf("%s flood: %s in %s\n", c.flood, note, took.Round(time.Millisecond))
	fmt.Printf("server RSS: %.1f MB idle, %.1f MB at the peak (+%.1f), %.1f MB after\n",
		idle.get("process_resident_memory_bytes")/1e6, peak.max()/1e6, (peak.max()-idle.get("process_resident_memory_bytes"))/1e6,
		after.get("process_resident_memory_bytes")/1e6)
	fmt.Printf("server heap in use: %.1f MB idle, %.1f MB after; goroutines %.0f idle, %.0f after\n",
		idle.get("go_memstats_heap_inuse_bytes")/1e6, after.get("go_memstats_heap_inuse_bytes")/1e6,
		idle.get("go_goroutines"), after.get("go_goroutines"))
	fmt.Printf("server CPU: %.2f s during the flood\n", after.get("process_cpu_seconds_total")-idle.get("process_cpu_seconds_total"))
	for _, r := range []string{"sessions_per_conn", "session_rate", "refused_sessions", "conns_per_addr", "conn_rate",
		"input_rate", "input_buffer", "conn_input_buffer", "input_budget"} {
		name := `smokestack_refusals_total{reason="` + r + `"}`
		if d := after.get(name) - idle.get(name); d > 0 {
			fmt.Printf("refused %s: %.0f\n", r, d)
		}
	}
	fmt.Printf("another player's whoami: %s at rest, %s during the flood\n", quiet, during)
	return nil
}

// dial connects with a key of its own.
func dial(addr string) (*gossh.Client, error) { return dialFrom(addr, "") }

// dialFrom connects from the local address from ("": any) with a key of
// its own.
func dialFrom(addr, from string) (*gossh.Client, error) {
	d := net.Dialer{Timeout: 10 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	c, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{User: "flood",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		conn.Close()
		return nil, err
	}
	conn.SetDeadline(time.Time{})
	return gossh.NewClient(c, chans, reqs), nil
}

// floodInput opens c.conns connections of c.sessions `play CODE --watch`
// sessions each, sends each c.size bytes of newlines, and holds them
// open for c.hold.
func floodInput(ctx context.Context, c config, host *gossh.Client) (string, error) {
	code, err := output(host, "new --players 2")
	if err != nil {
		return "", fmt.Errorf("new room: %w", err)
	}
	code = strings.TrimSpace(code)
	var sent, cut atomic.Int64
	var wg sync.WaitGroup
	var clients []*gossh.Client
	defer func() {
		for _, cl := range clients {
			cl.Close()
		}
	}()
	newlines := bytes.Repeat([]byte("\n"), c.size)
	var ins []io.Writer
	fill := func() {
		for _, in := range ins {
			wg.Go(func() {
				n, err := in.Write(newlines)
				sent.Add(int64(n))
				if err != nil {
					cut.Add(1)
				}
			})
		}
		ins = nil
	}
	for range c.conns {
		cl, err := dial(c.addr)
		if err != nil {
			return "", fmt.Errorf("flooding connection: %w", err)
		}
		clients = append(clients, cl)
		for range c.sessions {
			s, err := cl.NewSession()
			if err != nil {
				return "", fmt.Errorf("flooding session: %w", err)
			}
			in, _ := s.StdinPipe()
			s.Stdout, s.Stderr = io.Discard, io.Discard
			if err := s.Start("play " + code + " --watch"); err != nil {
				return "", fmt.Errorf("flooding session: %w", err)
			}
			ins = append(ins, in)
		}
		if c.flood == "input" {
			fill() // each connection's sessions as they open
		}
	}
	fill() // input-peak: every session's, once all are open
	wg.Wait()
	select {
	case <-ctx.Done():
	case <-time.After(c.hold):
	}
	return fmt.Sprintf("%d connections × %d sessions sent %.1f MB of %.1f MB; %d sessions cut off",
		c.conns, c.sessions, float64(sent.Load())/1e6, float64(c.conns*c.sessions*c.size)/1e6, cut.Load()), nil
}

// floodSessions has c.conns clients open sessions as fast as the server
// answers for c.duration, dialling again when a connection is closed.
func floodSessions(ctx context.Context, c config) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	var refused, opened, dials, failedDials atomic.Int64
	var wg sync.WaitGroup
	for range c.conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				dials.Add(1)
				cl, err := dial(c.addr)
				if err != nil {
					failedDials.Add(1)
					select {
					case <-ctx.Done():
					case <-time.After(100 * time.Millisecond):
					}
					continue
				}
				openUntilClosed(ctx, cl, &refused, &opened)
				cl.Close()
			}
		})
	}
	wg.Wait()
	return fmt.Sprintf("%d connections at a time: %d sessions refused, %d opened, %d dials (%d refused)",
		c.conns, refused.Load(), opened.Load(), dials.Load(), failedDials.Load()), nil
}

// openUntilClosed opens sessions on cl until it is closed or ctx ends.
// The client library can miss the close of a connection while it opens
// a channel, so each open also gives up when the connection is gone.
func openUntilClosed(ctx context.Context, cl *gossh.Client, refused, opened *atomic.Int64) {
	gone := make(chan struct{})
	go func() { cl.Wait(); close(gone) }()
	for ctx.Err() == nil {
		done := make(chan error, 1)
		go func() {
			s, err := cl.NewSession()
			if err == nil {
				s.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			var oc *gossh.OpenChannelError
			switch {
			case err == nil:
				opened.Add(1)
			case errors.As(err, &oc):
				refused.Add(1)
			default:
				return
			}
		case <-gone:
			return
		case <-ctx.Done():
			return
		}
	}
}

// output runs cmd and returns what it printed.
func output(c *gossh.Client, cmd string) (string, error) {
	s, err := c.NewSession()
	if err != nil {
		return "", err
	}
	defer s.Close()
	out, err := s.Output(cmd)
	return string(out), err
}

// prober times another player's `whoami` every 100 ms, on a connection
// of its own, a new one every probesPerConn runs to keep within the
// server's --session-rate.
type prober struct {
	addr, from string
	c          *gossh.Client
	runs       int
	mu         sync.Mutex
	ds         []time.Duration
}

const probesPerConn = 40

func (p *prober) once() {
	if p.c == nil || p.runs == probesPerConn {
		p.close()
		c, err := dialFrom(p.addr, p.from)
		if err != nil {
			return
		}
		p.c, p.runs = c, 0
	}
	p.runs++
	start := time.Now()
	if _, err := output(p.c, "whoami"); err != nil {
		return
	}
	p.mu.Lock()
	p.ds = append(p.ds, time.Since(start))
	p.mu.Unlock()
}

func (p *prober) close() {
	if p.c != nil {
		p.c.Close()
		p.c = nil
	}
}

func (p *prober) sample(ctx context.Context, n int) {
	for range n {
		if ctx.Err() != nil {
			return
		}
		p.once()
	}
}

func (p *prober) run(ctx context.Context) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.once()
		}
	}
}

// take returns the median, 95th percentile and worst of the times taken
// since the last take, and forgets them.
func (p *prober) take() string {
	p.mu.Lock()
	ds := p.ds
	p.ds = nil
	p.mu.Unlock()
	if len(ds) == 0 {
		return "no answer"
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))].Round(100 * time.Microsecond) }
	return fmt.Sprintf("median %s, p95 %s, max %s (%d runs)", at(0.5), at(0.95), ds[len(ds)-1].Round(100*time.Microsecond), len(ds))
}

// peakRSS follows the server's resident memory.
type peakRSS struct {
	mu   sync.Mutex
	high float64
}

func (r *peakRSS) follow(ctx context.Context, url string) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		if m, err := scrape(url); err == nil {
			r.mu.Lock()
			r.high = max(r.high, m.get("process_resident_memory_bytes"))
			r.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *peakRSS) max() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.high
}

// metrics are one scrape's samples, by name with labels as written.
type metrics map[string]float64

func (m metrics) get(name string) float64 { return m[name] }

func scrape(url string) (metrics, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w (run the server with --metrics-listen)", err)
	}
	defer resp.Body.Close()
	m := metrics{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			m[line[:i]] = v
		}
	}
	return m, sc.Err()
}
