package server

import (
	"net"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

// A session channel as the server accepts it: the one place where what a
// stranger sends on it is counted, before the SSH library keeps any of
// it. The library keeps every env request of a channel that has not
// started a command, and 128 signals of any size; it reads stderr for
// no one; and it keeps a channel that starts nothing open until the
// transport's idle timeout. So the channel the library is handed
// (countedChannel.Accept) is read by the server from the moment it
// opens (stdin into its inbox, stderr counted, inbox.go), and its
// requests pass a filter first: a request the server does not use, or
// larger than it needs, is refused there and never reaches the library;
// requests faster than Limits.RequestRate end the connection; and a
// channel that has started nothing by the no-session deadline is closed.
// Under all of it, the connection's own reads (connState.Read) wait
// while the library holds more of what it read than the server has
// taken, so the library's buffers are bounded at the peak too.

// What one session channel's requests may carry.
const (
	envVars   = 16      // env variables kept
	envBytes  = 4 << 10 // their names and values, in all
	ptyBytes  = 2 << 10 // a pty-req: the terminal's name and modes
	execBytes = 8 << 10 // an exec's command (the commands take 1 KiB: maxCommand)
	winBytes  = 16      // a window-change: four numbers
	// stderrInput is what a connection may send on its channels'
	// stderr, which no session reads (clients send none) before it is
	// cut.
	stderrInput = 4 << 10
)

// envAccepted reports whether the server reads the variable name: the
// locale (internal/lang), the terminal's colours, and the documented
// SMOKESTACK_ ones (server/cmd/terminal.go).
func envAccepted(name string) bool {
	switch name {
	case "LANG", "LANGUAGE", "TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
		"SMOKESTACK_THEME", "SMOKESTACK_BELL":
		return true
	}
	return strings.HasPrefix(name, "LC_") && len(name) <= 32
}

// countedChannel is a session channel being opened: Accept hands the
// library an inbox and the filtered requests.
type countedChannel struct {
	gossh.NewChannel
	s  *Server
	cs *connState // nil for a connection the gate does not know
	in *inbox     // once accepted

	quit chan struct{} // closed when the channel is closed for starting nothing
	idle *time.Timer   // closes it

	mu      sync.Mutex
	pty     *acceptedPty // once a pty-req was handed on
	started bool         // a shell or exec was handed on
	closed  bool         // closed for starting nothing
	envN    int          // env variables kept
	envSize int          // and their bytes
}

func (c *countedChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return nil, nil, err
	}
	c.in = c.s.openInbox(ch, c.cs)
	c.in.cc = c
	c.quit = make(chan struct{})
	if d := c.s.cfg.Limits.HandshakeTimeout; d > 0 {
		c.mu.Lock()
		c.idle = time.AfterFunc(d, c.startedNothing)
		c.mu.Unlock()
	}
	out := make(chan *gossh.Request)
	go c.filter(reqs, out)
	return c.in, out, nil
}

// startedNothing closes the channel when it has started nothing by the
// no-session deadline.
func (c *countedChannel) startedNothing() {
	c.mu.Lock()
	if c.started || c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	close(c.quit)
	c.refuse("idle_channel")
	_ = c.in.Close()
}

// end stops the deadline once the channel's requests have ended.
func (c *countedChannel) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idle != nil {
		c.idle.Stop()
	}
}

// refuse counts and logs a refusal on the channel's connection.
func (c *countedChannel) refuse(reason string) {
	if c.cs == nil {
		c.s.refuse(reason)
		return
	}
	c.s.refuse(reason, "remote", c.cs.addr.String())
	c.s.suspects.note(reason, "", addrKey(c.cs.addr), time.Now())
}

// filter hands the library the requests it may keep, in order, and
// refuses the rest. It reads every request as it comes: one left
// unread would hold up the whole connection, whose requests the SSH
// library hands over one at a time. Window sizes are not the library's:
// they go to the channel's PTY (acceptedPty), at most one per
// resizeEvery, the newest, so a storm of them draws a frame for the
// newest size only, a few times a second. Taking them here spares every
// session a goroutine waiting on the library's channel of sizes.
func (c *countedChannel) filter(reqs <-chan *gossh.Request, out chan<- *gossh.Request) {
	f := requestFilter{c: c, out: out}
	defer f.close()
	paced := time.NewTimer(0)
	defer paced.Stop()
	ready := true // resizeEvery has passed since the last size handed on
	quit := c.quit
	for {
		if f.size != nil && ready {
			c.resized(*f.size)
			f.size, ready = nil, false
			paced.Reset(resizeEvery)
		}
		select {
		case req, ok := <-reqs:
			if !ok {
				return
			}
			f.take(req)
		case <-paced.C:
			ready = true
		case <-quit:
			f.close() // the library's session is over: the rest is refused
			quit = nil
		}
	}
}

// acceptedPty is the channel's PTY, made when its request is handed on.
func (c *countedChannel) acceptedPty() *acceptedPty {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pty == nil {
		c.pty = new(acceptedPty)
	}
	return c.pty
}

// resized hands a size to the channel's PTY; none before its request.
func (c *countedChannel) resized(win ssh.Window) {
	c.mu.Lock()
	ap := c.pty
	c.mu.Unlock()
	if ap != nil {
		ap.resized(win)
	}
}

// channelOf is the channel a library session runs on: its stderr is the
// inbox's (inbox.Stderr), which knows it. Nil for a session on another
// kind of channel.
func channelOf(sess ssh.Session) *countedChannel {
	if e, ok := sess.Stderr().(inboxStderr); ok {
		return e.in.cc
	}
	return nil
}

// resizeEvery is how often a channel's window size is handed on, at most.
const resizeEvery = 100 * time.Millisecond

// requestFilter is the state of one channel's filter.
type requestFilter struct {
	c    *countedChannel
	out  chan<- *gossh.Request // nil once closed
	size *ssh.Window           // the newest window size, not handed on yet
}

// take refuses req, keeps it as the newest size, or hands it on.
func (f *requestFilter) take(req *gossh.Request) {
	c := f.c
	if c.cs != nil {
		c.cs.took(len(req.Payload))
	}
	if reason, quiet := c.admit(req); reason != "" {
		if !quiet {
			c.refuse(reason)
		}
		_ = req.Reply(false, nil)
		return
	}
	if req.Type == "window-change" {
		// Answered here (clients ask for no answer), and kept: the
		// newest goes to the PTY (filter).
		var w struct{ Cols, Rows, Width, Height uint32 }
		if gossh.Unmarshal(req.Payload, &w) != nil {
			_ = req.Reply(false, nil)
			return
		}
		_ = req.Reply(true, nil)
		f.size = &ssh.Window{Width: int(w.Cols), Height: int(w.Rows), WidthPixels: int(w.Width), HeightPixels: int(w.Height)}
		return
	}
	if f.out == nil {
		_ = req.Reply(false, nil)
		return
	}
	select {
	case f.out <- req:
	case <-c.quit:
		f.close()
		_ = req.Reply(false, nil)
	}
}

// close ends the requests the library reads.
func (f *requestFilter) close() {
	if f.out != nil {
		close(f.out)
		f.out = nil
	}
}

// admit is why req is refused, if it is; quiet when that is not worth
// a refusal of its own (a kind of request the server has no use for,
// one on a closed channel).
func (c *countedChannel) admit(req *gossh.Request) (reason string, quiet bool) {
	if c.cs != nil && !c.cs.allowRequest(c.s.cfg.Limits, req.Type, time.Now()) {
		c.s.cutConn(c.cs, "request_rate")
		return "request_rate", true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "closed", true
	}
	switch req.Type {
	case "env":
		var kv struct{ Name, Value string }
		if c.started || gossh.Unmarshal(req.Payload, &kv) != nil || !envAccepted(kv.Name) {
			return "env", false
		}
		n := len(kv.Name) + len(kv.Value)
		if c.envN >= envVars || c.envSize+n > envBytes {
			return "env", false
		}
		c.envN, c.envSize = c.envN+1, c.envSize+n
	case "signal":
		// No session reads signals: the library would keep 128.
		return "signal", false
	case "pty-req":
		if len(req.Payload) > ptyBytes {
			return "request_size", false
		}
		if c.pty == nil {
			c.pty = new(acceptedPty) // before the library's acceptPty
		}
	case "window-change":
		if len(req.Payload) > winBytes {
			return "request_size", false
		}
	case "shell", "exec":
		if len(req.Payload) > execBytes {
			return "request_size", false
		}
		c.started = true
		if c.idle != nil {
			c.idle.Stop()
		}
	default: // subsystems, X11, agent forwarding, break: none served
		return "unknown", true
	}
	return "", false
}

// allowRequest counts a channel request of kind on the connection, and
// reports false once they come faster than Limits.RequestRate (bursts
// of four seconds' worth). A window size counts a tenth of a request:
// a terminal dragged wider sends dozens a second, coalesced by the
// filter, but each still costs the server a packet to open.
func (cs *connState) allowRequest(lim Limits, kind string, now time.Time) bool {
	if lim.RequestRate <= 0 {
		return true
	}
	cost := sizesPerRequest
	if kind == "window-change" {
		cost = 1
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.requestRate == nil {
		per := sizesPerRequest * lim.RequestRate
		cs.requestRate = rate.NewLimiter(rate.Limit(per), 4*per)
	}
	return cs.requestRate.AllowN(now, cost)
}

// sizesPerRequest is how many window sizes count as one request.
const sizesPerRequest = 10

// chargeStderr counts n bytes of stderr input on the connection, and
// cuts it past stderrInput.
func (cs *connState) chargeStderr(n int) {
	if cs.stderr.Add(int64(n)) > stderrInput {
		cs.s.cutConn(cs, "stderr_input")
	}
}

// cutConn closes a connection at once for a flood of what no session
// asked for (requests too fast, input on stderr), counting it once
// and its address as suspect. Unlike endConnState it tells nothing: a
// client that sends these is not a person at a terminal.
func (s *Server) cutConn(cs *connState, reason string) {
	if !cs.cut.CompareAndSwap(false, true) {
		return
	}
	s.refuse(reason, "remote", cs.addr.String())
	s.suspects.note(reason, "", addrKey(cs.addr), time.Now())
	go cs.Close()
}

// Read reads for the SSH transport, which buffers what it reads for its
// channels until they are read: up to a 2 MiB window for each, that
// the server cannot make smaller. The server reads every channel as
// data arrives (inbox.go) and counts what it takes (took); while the
// transport holds more than maxLag that the server has not taken yet,
// Read waits for it to, so what a connection can make the library hold
// is bounded at the peak, not only once the channels are read
// (TestInputPeakIsBounded). What the server never takes (the packets'
// own bytes, the transport's messages) is forgiven once the server has
// taken nothing for lagGrace.
func (cs *connState) Read(p []byte) (int, error) {
	if cs.lag.Load() > maxLag {
		cs.awaitDrain()
	}
	select {
	case <-cs.deaf:
		<-cs.closed
		return 0, net.ErrClosed
	default:
	}
	n, err := cs.Conn.Read(p)
	cs.lag.Add(int64(n))
	return n, err
}

// maxLag bounds what the SSH transport holds of one connection for the
// server to read; lagGrace is how long the server may take nothing
// before the rest is forgiven.
const (
	maxLag   = 64 << 10
	lagGrace = 100 * time.Millisecond
	// packetOverhead is what an SSH packet carries besides its payload,
	// at the most for a small one: its length, padding and MAC, and the
	// message's type, channel and request name.
	packetOverhead = 64
)

// stopReading has the server read nothing more of the connection: a
// flood stays in the kernel's buffers, and then the client's, until the
// connection closes, while what the server writes still goes out.
func (cs *connState) stopReading() { cs.deafOnce.Do(func() { close(cs.deaf) }) }

// awaitDrain waits until the lag falls under maxLag, or the server has
// taken nothing for lagGrace: then what is left is not input waiting to
// be read, and is forgiven.
func (cs *connState) awaitDrain() {
	t := time.NewTimer(lagGrace)
	defer t.Stop()
	takes := cs.takes.Load()
	for cs.lag.Load() > maxLag {
		select {
		case <-cs.drained:
		case <-t.C:
			if n := cs.takes.Load(); n != takes {
				takes = n // still reading: slow, not done
				t.Reset(lagGrace)
				continue
			}
			cs.lag.Store(0)
			return
		}
	}
}

// took counts what the server took off the transport: n bytes of a
// channel's input or a request's payload, and the packet they came in
// (packetOverhead), so keystrokes and window sizes cost no wait.
func (cs *connState) took(n int) {
	cs.takes.Add(1)
	v := cs.lag.Add(-int64(n + packetOverhead))
	if v < 0 {
		cs.lag.CompareAndSwap(v, 0)
	}
	if v <= maxLag {
		select {
		case cs.drained <- struct{}{}:
		default:
		}
	}
}
