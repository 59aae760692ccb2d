package server

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/engine/factories"
)

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd to count descriptors with")
	}
	return len(fds)
}

// dialFrom connects from a loopback address of its own, as players from
// many addresses would, so the per-address limits stay at their defaults.
func dialFrom(addr string, from int, key gossh.Signer) (*gossh.Client, net.Conn, error) {
	return dialFromAs(addr, from, "leak", gossh.PublicKeys(key))
}

// dialFromAs is dialFrom with the user and login method given.
func dialFromAs(addr string, from int, user string, auth gossh.AuthMethod) (*gossh.Client, net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(from/250), byte(2+from%250))}, Timeout: 10 * time.Second}
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	cc, chans, reqs, err := gossh.NewClientConn(nc, addr, &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{auth}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return gossh.NewClient(cc, chans, reqs), nc, nil
}

// After many sessions connect, play and go, cleanly and abruptly, the
// server is back to the goroutines and file descriptors it started with.
// It runs 1,000 sessions; 200 under -short or the race detector, which
// slows each one tenfold.
func TestNoLeaks(t *testing.T) {
	n := 1000
	if testing.Short() || raceEnabled {
		n = 200
	}
	lim := DefaultLimits()
	// Long enough for 40 handshakes at once on a busy machine: at 1 s a
	// few of 1,000 timed out at a load average of 6.
	lim.HandshakeTimeout = 3 * time.Second
	if raceEnabled {
		lim.HandshakeTimeout = 5 * time.Second
	}
	srv := startServer(t, withLimits(lim))
	warm := dialKey(t, srv.addr, "warm", newKey(t))
	run(t, warm, "rooms", "")
	warm.Close()
	waitUntil(t, "the warm-up connection gone", func() bool {
		if len(srv.sessions()) > 0 {
			return false
		}
		srv.gate.mu.Lock()
		defer srv.gate.mu.Unlock()
		u := srv.gate.addrs["127.0.0.1"]
		return u == nil || u.conns == 0
	})
	baseG, baseFD := runtime.NumGoroutine(), openFDs(t)

	host := dialKey(t, srv.addr, "host", newKey(t))
	var codes []string
	for range 20 {
		codes = append(codes, strings.TrimSpace(run(t, host, "new --players 2", "").stdout))
	}
	host.Close()

	var wg sync.WaitGroup
	sem := make(chan struct{}, 40)
	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		failures = append(failures, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := oneSession(srv.addr, i, codes[i%len(codes)]); err != nil {
				fail("session %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d of %d sessions failed, first: %s", len(failures), n, failures[0])
	}
	var g, fd int
	deadline := time.Now().Add(15 * time.Second)
	for {
		g, fd = runtime.NumGoroutine(), openFDs(t)
		if g <= baseG && fd <= baseFD || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // the poll's pace, until the deadline
	}
	t.Logf("%d sessions: goroutines %d before, %d after; open files %d before, %d after", n, baseG, g, baseFD, fd)
	if g > baseG || fd > baseFD {
		buf := make([]byte, 1<<20)
		t.Errorf("leaked %d goroutines and %d files:\n%s", g-baseG, fd-baseFD, buf[:runtime.Stack(buf, true)])
	}
}

// leakKeys are a few players' keys: generating one per session would
// take longer than the sessions.
var leakKeys = func() []ed25519.PrivateKey {
	var keys []ed25519.PrivateKey
	for range 16 {
		_, k, _ := ed25519.GenerateKey(rand.Reader)
		keys = append(keys, k)
	}
	return keys
}()

// oneSession is one player's visit, of a kind chosen by i: a command, a
// seat taken and moves played, a terminal, a TCP connection that never
// speaks SSH; half of them end by the network dropping.
func oneSession(addr string, i int, code string) error {
	if i%8 == 7 { // never starts the handshake: the deadline drops it
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(2+i%250))}}
		nc, err := d.Dial("tcp", addr)
		if err != nil {
			return err
		}
		defer nc.Close()
		nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err = nc.Read(make([]byte, 256)) // the server's version line
		for err == nil {
			_, err = nc.Read(make([]byte, 256))
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			return fmt.Errorf("not dropped at the handshake deadline")
		}
		return nil
	}
	key, err := gossh.NewSignerFromKey(leakKeys[i%len(leakKeys)])
	if err != nil {
		return err
	}
	c, nc, err := dialFrom(addr, i, key)
	if err != nil {
		return err
	}
	defer c.Close()
	abrupt := i%2 == 1
	defer func() {
		if abrupt {
			nc.(*net.TCPConn).SetLinger(0) // a reset, no goodbye
			nc.Close()
		}
	}()
	s, err := c.NewSession()
	if err != nil {
		return err
	}
	defer s.Close()
	switch i % 4 {
	case 0:
		_, err := s.Output("rooms")
		return err
	case 1, 2:
		return playSome(s, code)
	default:
		if err := s.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
			return err
		}
		out, err := s.StdoutPipe()
		if err != nil {
			return err
		}
		in, err := s.StdinPipe()
		if err != nil {
			return err
		}
		if err := s.Start("watch " + code); err != nil {
			return err
		}
		buf := make([]byte, 4096)
		if _, err := out.Read(buf); err != nil { // the first frame
			return err
		}
		in.Write([]byte("jjk\x1b[A"))
		return nil
	}
}

// playSome sits down (or gets a refusal, if the room is full) and plays
// the seat's legal moves while it has some, three at most.
func playSome(s *gossh.Session, code string) error {
	in, err := s.StdinPipe()
	if err != nil {
		return err
	}
	out, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	if err := s.Start("play " + code); err != nil {
		return err
	}
	dec := json.NewDecoder(out)
	for moves := 0; moves < 3; {
		var l line
		if err := dec.Decode(&l); err != nil {
			return nil // the room was full, or the game ended
		}
		if l.OK || l.Error != "" {
			continue
		}
		var v factories.View
		if json.Unmarshal(l.View, &v) != nil || len(v.Legal) == 0 {
			return nil // not this seat's turn: leave
		}
		b, _ := json.Marshal(v.Legal[0])
		in.Write(append(b, '\n'))
		moves++
	}
	return nil
}
