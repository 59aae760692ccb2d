package server

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// The floods of the SSH layer itself, each over real SSH in the order
// an attacker would choose, with the server's heap read from its
// metrics at the peak: what a stranger sends on a session channel
// (requests, stdin, stderr) and the channel itself are counted where
// they arrive (transport.go).

// heapPeak samples what the process's heap holds (the live heap each
// collection finds) until stop, which returns the highest it rose above
// what the heap held when heapPeak was called. Meanwhile the collector
// runs once the heap grows by a hundredth (not doubles), so what a flood
// makes the server hold is seen while it is held. Garbage is never
// counted: the test's own client marshalling the flood, and whatever
// earlier tests or the process's shared caches churn, would move the
// heap's total with the load of the machine, not with the server.
func (s *Server) heapPeak(t *testing.T) (stop func() float64) {
	t.Helper()
	gc := debug.SetGCPercent(1)
	runtime.GC()
	base := liveHeap()
	var peak atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := liveHeap(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() float64 {
		close(done)
		wg.Wait()
		debug.SetGCPercent(gc)
		return float64(peak.Load() - base)
	}
}

// alone runs the calling test again in a test process of its own, and
// reports whether it did (the caller then returns): a heap's peak is the
// server's only where nothing else has run. In the package's process the
// earlier tests leave a larger heap, whose collections take longer, and
// what is allocated during one is counted live for it: the signal flood
// rose 1 MiB alone and 13 in a full run, with no goroutine of theirs left.
func alone(t *testing.T) bool {
	t.Helper()
	if os.Getenv(aloneEnv) == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), aloneEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, ".go:") { // the test's own logs and failures
			t.Log(strings.TrimSpace(line))
		}
	}
	if err != nil {
		t.Fatalf("%s in a process of its own: %v", t.Name(), err)
	}
	return true
}

const aloneEnv = "SMOKESTACK_TEST_ALONE"

// liveHeap is the heap the last collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// rawSession opens a session channel on c and starts nothing on it, as a
// hostile client may; what the server asks of it is refused.
func rawSession(t *testing.T, c *gossh.Client) gossh.Channel {
	t.Helper()
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		t.Fatal(err)
	}
	go gossh.DiscardRequests(reqs)
	t.Cleanup(func() { ch.Close() })
	return ch
}

// envRequest is the payload of an env request.
func envRequest(name, value string) []byte {
	return gossh.Marshal(struct{ Name, Value string }{name, value})
}

const mib = 1 << 20

// floodLimits are the default limits without the request rate, which
// would cut a request flood short (TestRequestStormIsCut): the floods
// below show what each request costs the server when it is taken.
func floodLimits() Limits {
	lim := DefaultLimits()
	lim.RequestRate = 0
	return lim
}

// env requests are the names the server reads only, a few of a few KiB
// each: the rest are refused and not kept. Before, every one was kept
// until its channel closed: 10 channels sent 100 variables of 30 KiB
// each held all 30 MiB of them.
func TestEnvFloodIsRefused(t *testing.T) {
	if alone(t) {
		return
	}
	srv := startServer(t, withLimits(floodLimits()))
	c := dialKey(t, srv.addr, "mallory", newKey(t))
	value := strings.Repeat("x", 30<<10)
	peak := srv.heapPeak(t)
	var chans []gossh.Channel
	for range 10 {
		ch := rawSession(t, c)
		chans = append(chans, ch)
		for i := range 100 {
			name := "FLOOD"
			if i%2 == 1 {
				name = "LANG" // a name the server reads, far too long
			}
			if _, err := ch.SendRequest("env", false, envRequest(name, value)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The channels' requests are answered in order: these answers come
	// after the flood was taken.
	for _, ch := range chans {
		if ok, err := ch.SendRequest("env", true, envRequest("LANG", "pl_PL.UTF-8")); err != nil || !ok {
			t.Fatalf("a short LANG after the flood: %v %v, want it accepted", ok, err)
		}
		if ok, _ := ch.SendRequest("env", true, envRequest("PATH", "/bin")); ok {
			t.Error("PATH, which the server never reads, was accepted")
		}
	}
	grew := peak()
	t.Logf("30 MiB of env requests on 10 channels: the heap rose by %.1f MiB at the most", grew/mib)
	if grew > 12*mib {
		t.Errorf("the heap rose by %.1f MiB with the env flood, want under 12 MiB", grew/mib)
	}
	if n := srv.refusals("env"); n < 1000 {
		t.Errorf("%d env refusals counted, want the 1,000 of the flood", n)
	}
	// The names the server reads still reach it.
	s, err := dialKey(t, srv.addr, "alice", newKey(t)).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Setenv("LANG", "pl_PL.UTF-8"); err != nil {
		t.Fatal(err)
	}
	out, err := s.Output("lang")
	if err != nil || !strings.Contains(string(out), "pl") {
		t.Errorf("lang with LANG=pl_PL.UTF-8: %q %v", out, err)
	}
}

// signal requests before a command starts are refused and not kept.
// Before, a channel kept 128 of them whatever their size: 10 channels
// sent 128 signals of 20 KiB held 25 MiB.
func TestSignalFloodIsRefused(t *testing.T) {
	if alone(t) {
		return
	}
	srv := startServer(t, withLimits(floodLimits()))
	c := dialKey(t, srv.addr, "mallory", newKey(t))
	name := strings.Repeat("S", 20<<10)
	peak := srv.heapPeak(t)
	var chans []gossh.Channel
	for range 10 {
		ch := rawSession(t, c)
		chans = append(chans, ch)
		for range 128 {
			if _, err := ch.SendRequest("signal", false, gossh.Marshal(struct{ Signal string }{name})); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, ch := range chans { // answered after the signals were taken
		if _, err := ch.SendRequest("env", true, envRequest("LANG", "C")); err != nil {
			t.Fatal(err)
		}
	}
	grew := peak()
	t.Logf("25 MiB of signals on 10 channels: the heap rose by %.1f MiB at the most", grew/mib)
	if grew > 12*mib {
		t.Errorf("the heap rose by %.1f MiB with the signal flood, want under 12 MiB", grew/mib)
	}
	if n := srv.refusals("signal"); n < 1280 {
		t.Errorf("%d signal refusals counted, want the 1,280 of the flood", n)
	}
}

// Input on a channel's stderr, which no session reads, ends its
// connection past a few KiB. Before, it was read and dropped, never
// counted: a client could pour it in as fast as the server read.
func TestStderrInputEndsTheConnection(t *testing.T) {
	if alone(t) {
		return
	}
	srv := startServer(t, withLimits(DefaultLimits()))
	c := dialKey(t, srv.addr, "mallory", newKey(t))
	gone := goneOf(c)
	chunk := make([]byte, 32<<10)
	peak := srv.heapPeak(t)
	var chans []gossh.Channel
	for range 10 {
		chans = append(chans, rawSession(t, c))
	}
	var wg sync.WaitGroup
	for _, ch := range chans {
		wg.Go(func() {
			for range 64 { // 2 MiB each
				if _, err := ch.Stderr().Write(chunk); err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the connection sending 20 MiB on stderr is still open after 10s")
	}
	grew := peak()
	t.Logf("10 channels sent stderr: the heap rose by %.1f MiB at the most", grew/mib)
	if grew > 8*mib {
		t.Errorf("the heap rose by %.1f MiB with the stderr flood, want under 8 MiB", grew/mib)
	}
	if n := srv.refusals("stderr_input"); n != 1 {
		t.Errorf("%d stderr_input refusals counted, want 1", n)
	}
}

// The input budgets hold at the peak, in the order an attacker would
// choose: every session of an address's connections opened first, then
// every 2 MiB window filled at once (380 MiB). Before, the budgets
// bounded what was held once read, not what waited in the SSH library
// to be read, and a connection past them was read to its end: the heap
// rose by 35 MiB here (the clients' own buffers, about 9 MiB of it,
// are in this process too), and the server's RSS by 110 MB in
// smokeflood's --flood input-peak.
func TestInputPeakIsBounded(t *testing.T) {
	if alone(t) {
		return
	}
	const conns, sessions = 19, 10
	srv := startServer(t, withLimits(DefaultLimits()))
	host := dialKey(t, srv.addr, "alice", newKey(t))
	code := strings.TrimSpace(run(t, host, "new --players 2", "").stdout)
	var ins []io.Writer
	var clients []*gossh.Client
	for range conns {
		c := dialKey(t, srv.addr, "mallory", newKey(t))
		clients = append(clients, c)
		for range sessions {
			// Read as little as a flooding client would: its output is
			// dropped as it comes.
			s, err := c.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			s.Stdout, s.Stderr = io.Discard, io.Discard
			in, err := s.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Start("play " + code + " --watch"); err != nil {
				t.Fatal(err)
			}
			ins = append(ins, in)
		}
	}
	waitUntil(t, "every session to start", func() bool { return len(srv.sessions()) == conns*sessions })
	chunk := bytes.Repeat([]byte("\n"), 32<<10)
	peak := srv.heapPeak(t)
	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Go(func() {
			for range 64 { // 2 MiB each: the whole window
				if _, err := in.Write(chunk); err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	for _, c := range clients {
		select {
		case <-goneOf(c):
		case <-time.After(15 * time.Second):
			t.Fatal("a flooding connection is still open after 15s")
		}
	}
	grew := peak()
	t.Logf("%d sessions filled their windows: the heap rose by %.1f MiB at the most", conns*sessions, grew/mib)
	if grew > 24*mib {
		t.Errorf("the heap rose by %.1f MiB at the peak, want under 24 MiB", grew/mib)
	}
	waitUntil(t, "the held input to be let go", func() bool { return srv.metric(t, "smokestack_input_held_bytes") == 0 })
}

// A session channel that starts nothing (no shell, exec or subsystem)
// is closed after the no-session deadline, and counts against
// --max-sessions while it is open. Before, it stayed open until the
// transport's idle timeout and was counted by nothing.
func TestIdleChannelCloses(t *testing.T) {
	srv := startServer(t, withLimits(Limits{HandshakeTimeout: 500 * time.Millisecond, Sessions: 1}))
	c := dialKey(t, srv.addr, "mallory", newKey(t))
	ch := rawSession(t, c)
	other := dialKey(t, srv.addr, "alice", newKey(t))
	if _, err := newSession(other); err == nil || !strings.Contains(err.Error(), refusalLine(nil, "sessions")) {
		t.Errorf("a session while an idle channel holds the only one: %v, want %q", err, refusalLine(nil, "sessions"))
	}
	closed := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, ch)
		closed <- err
	}()
	keepalives := time.NewTicker(50 * time.Millisecond)
	defer keepalives.Stop()
	deadline := time.After(5 * time.Second)
wait:
	for {
		select {
		case <-closed:
			break wait
		case <-keepalives.C:
			_, _, _ = c.SendRequest("keepalive@openssh.com", true, nil)
		case <-deadline:
			t.Fatal("a channel that started nothing is still open after 5s")
		}
	}
	if n := srv.refusals("idle_channel"); n != 1 {
		t.Errorf("%d idle_channel refusals counted, want 1", n)
	}
	waitUntil(t, "the idle channel's slot to be freed", func() bool {
		srv.gate.mu.Lock()
		defer srv.gate.mu.Unlock()
		return srv.gate.sessions == 0
	})
	if r := run(t, dialKey(t, srv.addr, "alice", newKey(t)), "whoami", ""); r.status != 0 {
		t.Errorf("whoami once the idle channel closed: %+v", r)
	}
}

// A storm of window sizes is coalesced: the terminal's program is
// handed the newest at most every resizeEvery, and draws the last one.
// Before, each size the program could take was drawn: 1.68 million in
// 10 s cost 6.65 CPU-seconds, 28 frames a second of 512x256. (Past
// Limits.RequestRate the storm ends its connection, as other requests
// do: TestRequestFloodEndsTheConnection.)
func TestResizeStormIsCoalesced(t *testing.T) {
	srv := startServer(t, withLimits(DefaultLimits()))
	c := dialKey(t, srv.addr, "alice", newKey(t))
	term, scr := ptySession(t, c, "", 80, 24)
	scr.waitFor(t, "OPEN SEATS")
	before := srv.metric(t, "smokestack_window_sizes_total")
	start := time.Now()
	for i := range 3000 { // within the burst --request-rate allows
		if err := term.WindowChange(24+i%50, 80+i%100); err != nil {
			t.Fatal(err)
		}
	}
	from := len(scr.raw())
	if err := term.WindowChange(80, 120); err != nil { // taller than any of the storm's
		t.Fatal(err)
	}
	// The storm is over once the server has drawn its last size, and
	// the program has that size.
	drawnAfter(t, scr, from)
	storm := time.Since(start)
	ls := srv.sessions()[0]
	ls.mu.Lock()
	win, pending := ls.window, ls.pending
	ls.mu.Unlock()
	if win.Width != 120 || win.Height != 80 || pending {
		t.Errorf("after the storm the program has %dx%d (a newer pending: %v), want the last size, 120x80", win.Width, win.Height, pending)
	}
	sizes := srv.metric(t, "smokestack_window_sizes_total") - before
	limit := float64(storm/resizeEvery) + 3
	t.Logf("3,000 sizes taken in %s: %.0f handed to the program", storm.Round(time.Millisecond), sizes)
	if sizes > limit {
		t.Errorf("%.0f sizes handed to the program in a storm of %s, want at most %.0f", sizes, storm.Round(time.Millisecond), limit)
	}
}

// Channel requests faster than Limits.RequestRate end the connection:
// each costs the server a packet to open, whatever it asks. Window
// sizes count a tenth of a request each.
func TestRequestFloodEndsTheConnection(t *testing.T) {
	for _, tc := range []struct {
		kind    string
		n       int
		payload []byte
	}{
		{"env", 10000, envRequest("LANG", "C")},
		{"window-change", 100000, gossh.Marshal(struct{ W, H, PW, PH uint32 }{512, 256, 0, 0})},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			srv := startServer(t, withLimits(DefaultLimits()))
			c := dialKey(t, srv.addr, "mallory", newKey(t))
			gone := goneOf(c)
			ch := rawSession(t, c)
			if _, err := ch.SendRequest("pty-req", true, gossh.Marshal(struct {
				Term         string
				W, H, PW, PH uint32
				Modes        string
			}{"xterm", 80, 24, 0, 0, ""})); err != nil {
				t.Fatal(err)
			}
			for range tc.n {
				if _, err := ch.SendRequest(tc.kind, false, tc.payload); err != nil {
					break
				}
			}
			select {
			case <-gone:
			case <-time.After(10 * time.Second):
				t.Fatalf("a connection sending %d %s requests at once is still open after 10s", tc.n, tc.kind)
			}
			if n := srv.refusals("request_rate"); n != 1 {
				t.Errorf("%d request_rate refusals counted, want 1", n)
			}
		})
	}
}
