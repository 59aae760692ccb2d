// Command smokeflood floods a running smokestack server the way the
// attacks in docs/security.md did, and reports what the flood cost the
// server, read from its metrics, and how long another player's command
// took meanwhile:
//
//	smokeflood --flood input    # 20 connections × 10 `play CODE --watch`, 2 MiB of newlines each
//	smokeflood --flood input-peak   # the same, every session opened before any is written to
//	smokeflood --flood sessions --conns 1 --duration 30s   # sessions opened as fast as they are refused
//	smokeflood --flood env --conns 1     # 10 channels × 1,000 env requests of 30 KB
//	smokeflood --flood signal --conns 1  # 10 channels × 128 signals of 200 KB, before any command
//	smokeflood --flood stderr            # 20 connections × 10 channels × 2 MiB on stderr
//	smokeflood --flood idle --hold 60s   # channels that start nothing, held open
//	smokeflood --flood resize --conns 1 --duration 10s   # window sizes as fast as they go, 512x256
//	smokeflood --flood rooms --duration 30s   # a new key per room: `new` as fast as it answers
//
// The server must run with --metrics-listen (say 127.0.0.1:9222). Every
// connection comes from this machine, so it counts against one
// address's limits, as one attacker's would.
package main

import (
	"bufio"
	"bytes"
	"cmp"
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
	size, count          int
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
	fs.IntVar(&c.size, "size", 0, "bytes sent to each session (input, stderr: 2 MiB), or in each request (env: 30 KB, signal: 200 KB)")
	fs.IntVar(&c.count, "count", 0, "with --flood env or signal, requests per channel (env: 1000, signal: 128)")
	fs.DurationVar(&c.duration, "duration", 30*time.Second, "with --flood sessions, resize or rooms, how long to flood")
	fs.DurationVar(&c.hold, "hold", 10*time.Second, "how long to hold the sessions open after sending (idle: after opening)")
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
		c.size = cmp.Or(c.size, 2<<20)
		note, err = floodInput(ctx, c, probe)
	case "sessions":
		note, err = floodSessions(ctx, c)
	case "env", "signal", "stderr", "idle":
		note, err = floodChannels(ctx, c)
	case "resize":
		note, err = floodResize(ctx, c)
	case "rooms":
		note, err = floodRooms(ctx, c)
	default:
		err = fmt.Errorf("--flood %q: choose input, input-peak, sessions, env, signal, stderr, idle, resize or rooms", c.flood)
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
	report(c.flood, note, took, idle, after, max(peak.max(), after.get("process_resident_memory_bytes")))
	fmt.Printf("another player's whoami: %s at rest, %s during the flood\n", quiet, during)
	return nil
}

// report prints what the flood cost the server: its memory, CPU and
// refusals, from its metrics before (idle) and after, and the peak RSS.
func report(flood, note string, took time.Duration, idle, after metrics, peak float64) {
	fmt.Printf("%s flood: %s in %s\n", flood, note, took.Round(time.Millisecond))
	fmt.Printf("server RSS: %.1f MB idle, %.1f MB at the peak (+%.1f), %.1f MB after\n",
		idle.get("process_resident_memory_bytes")/1e6, peak/1e6, (peak-idle.get("process_resident_memory_bytes"))/1e6,
		after.get("process_resident_memory_bytes")/1e6)
	fmt.Printf("server heap in use: %.1f MB idle, %.1f MB after; goroutines %.0f idle, %.0f after\n",
		idle.get("go_memstats_heap_inuse_bytes")/1e6, after.get("go_memstats_heap_inuse_bytes")/1e6,
		idle.get("go_goroutines"), after.get("go_goroutines"))
	fmt.Printf("server CPU: %.2f s during the flood\n", after.get("process_cpu_seconds_total")-idle.get("process_cpu_seconds_total"))
	for name := range after {
		r, ok := strings.CutPrefix(name, `smokestack_refusals_total{reason="`)
		if d := after.get(name) - idle.get(name); ok && d > 0 {
			fmt.Printf("refused %s: %.0f\n", strings.TrimSuffix(r, `"}`), d)
		}
	}
	if d := after.get("smokestack_window_sizes_total") - idle.get("smokestack_window_sizes_total"); d > 0 {
		fmt.Printf("window sizes drawn: %.0f\n", d)
	}
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

// floodChannels opens c.conns connections of c.sessions session channels
// each, none starting a command, all of them before any is flooded, and
// floods each with c.flood: env requests, signals, or input on stderr;
// or, for idle, nothing. It then holds them for c.hold, and says how
// many the server closed.
func floodChannels(ctx context.Context, c config) (string, error) {
	type open struct {
		cl *gossh.Client
		ch gossh.Channel
	}
	var chans []open
	var clients []*gossh.Client
	defer func() {
		for _, cl := range clients {
			cl.Close()
		}
	}()
	for range c.conns {
		cl, err := dial(c.addr)
		if err != nil {
			return "", fmt.Errorf("flooding connection: %w", err)
		}
		clients = append(clients, cl)
		for range c.sessions {
			ch, reqs, err := cl.OpenChannel("session", nil)
			if err != nil {
				return "", fmt.Errorf("flooding channel: %w", err)
			}
			go gossh.DiscardRequests(reqs)
			chans = append(chans, open{cl, ch})
		}
	}
	var sent, refused atomic.Int64
	var closed atomic.Int64
	var wg sync.WaitGroup
	for _, o := range chans {
		wg.Go(func() {
			floodChannel(c, o.ch, &sent)
			// Answered once what came before was taken.
			if ok, err := o.ch.SendRequest("env", true, gossh.Marshal(struct{ Name, Value string }{"LANG", "C"})); err == nil && !ok {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	for _, o := range chans {
		wg.Go(func() {
			done := make(chan struct{})
			go func() { io.Copy(io.Discard, o.ch); close(done) }()
			select {
			case <-done:
				closed.Add(1)
			case <-ctx.Done():
			case <-time.After(c.hold):
			}
		})
	}
	wg.Wait()
	return fmt.Sprintf("%d connections × %d channels sent %.1f MB; %d of %d channels closed by the server within %s",
		c.conns, c.sessions, float64(sent.Load())/1e6, closed.Load(), len(chans), c.hold), nil
}

// floodChannel floods ch with c.flood, counting what it sent.
func floodChannel(c config, ch gossh.Channel, sent *atomic.Int64) {
	switch c.flood {
	case "env":
		value := strings.Repeat("x", cmp.Or(c.size, 30_000))
		for i := range cmp.Or(c.count, 1000) {
			name := []string{"FLOOD", "LANG"}[i%2]
			if _, err := ch.SendRequest("env", false, gossh.Marshal(struct{ Name, Value string }{name, value})); err != nil {
				return
			}
			sent.Add(int64(len(value)))
		}
	case "signal":
		name := strings.Repeat("S", cmp.Or(c.size, 200_000))
		for range cmp.Or(c.count, 128) {
			if _, err := ch.SendRequest("signal", false, gossh.Marshal(struct{ Signal string }{name})); err != nil {
				return
			}
			sent.Add(int64(len(name)))
		}
	case "stderr":
		chunk := make([]byte, 32<<10)
		for n := 0; n < cmp.Or(c.size, 2<<20); n += len(chunk) {
			if _, err := ch.Stderr().Write(chunk); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
		}
	}
}

// floodResize opens a terminal on each of c.conns connections and sends
// window sizes as fast as they go for c.duration, 512x256 and one less.
func floodResize(ctx context.Context, c config) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	var sent atomic.Int64
	var wg sync.WaitGroup
	for range c.conns {
		cl, err := dial(c.addr)
		if err != nil {
			return "", fmt.Errorf("flooding connection: %w", err)
		}
		defer cl.Close()
		s, err := cl.NewSession()
		if err != nil {
			return "", err
		}
		s.Stdout, s.Stderr = io.Discard, io.Discard
		if err := s.RequestPty("xterm-256color", 256, 512, gossh.TerminalModes{}); err != nil {
			return "", err
		}
		if _, err := s.StdinPipe(); err != nil {
			return "", err
		}
		if err := s.Shell(); err != nil {
			return "", err
		}
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				if s.WindowChange(256-i%2, 512-i%2) != nil {
					return
				}
				sent.Add(1)
			}
		})
	}
	wg.Wait()
	return fmt.Sprintf("%d terminals sent %d window sizes", c.conns, sent.Load()), nil
}

// floodRooms makes rooms with `new` for c.duration, each on a connection
// with a new key, c.conns at a time.
func floodRooms(ctx context.Context, c config) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.duration)
	defer cancel()
	var made, refused atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	lastRefusal := ""
	for range c.conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				cl, err := dial(c.addr)
				if err != nil {
					time.Sleep(100 * time.Millisecond)
					continue
				}
				s, err := cl.NewSession()
				if err == nil {
					var stderr bytes.Buffer
					s.Stderr = &stderr
					if err := s.Run("new --players 2"); err == nil {
						made.Add(1)
					} else {
						refused.Add(1)
						mu.Lock()
						lastRefusal = strings.TrimSpace(stderr.String())
						mu.Unlock()
					}
				}
				cl.Close()
			}
		})
	}
	wg.Wait()
	return fmt.Sprintf("%d rooms made, %d refused (the last told %q)", made.Load(), refused.Load(), lastRefusal), nil
}
