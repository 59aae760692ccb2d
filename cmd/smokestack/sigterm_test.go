package main

import (
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// terminal is a PTY session as its client sees it.
type terminal struct {
	conn *gossh.Client
	sess *gossh.Session
	syncBuffer
}

func (s *terminal) waitFor(t *testing.T, name, want string) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(ansi.Strip(s.String()), want); {
		if time.Now().After(deadline) {
			t.Fatalf("%s never showed %q; it shows %q", name, want, ansi.Strip(s.String()))
		}
		time.Sleep(20 * time.Millisecond) // the poll's pace
	}
}

// openTerminal starts cmd (the lobby when empty) on a PTY of its own
// connection, as a person's ssh -t would.
func openTerminal(t *testing.T, addr, user, cmd string) *terminal {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(newClientKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	term := &terminal{conn: c, sess: sess}
	sess.Stdout, sess.Stderr = &term.syncBuffer, &term.syncBuffer
	if _, err := sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if cmd == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(cmd)
	}
	if err != nil {
		t.Fatal(err)
	}
	return term
}

// SIGTERM tells every connected session that the server restarts, each
// on a restored terminal, and the server exits cleanly within its grace.
// (Each Bubble Tea program used to catch SIGTERM itself and quit before
// the server could say why, so some sessions were left untold.)
func TestSIGTERMTellsEverySession(t *testing.T) {
	srv := startServeProcess(t, filepath.Join(t.TempDir(), "data"))
	users := []string{"alice", "bob", "carol", "dave"}
	var terms []*terminal
	for _, user := range users {
		term := openTerminal(t, srv.addr, user, "")
		term.waitFor(t, user, "smokestack")
		terms = append(terms, term)
	}
	// Keep every screen redrawing as the signal comes: resize storms,
	// under way once each screen draws again.
	for _, term := range terms {
		drawn := len(term.String())
		go func() {
			// Paced within --request-rate: a storm past it ends the
			// connection (a size counts a tenth of a request).
			for i := 0; term.sess.WindowChange(24+i%20, 80+i%40) == nil; i++ {
				time.Sleep(2 * time.Millisecond)
			}
		}()
		for deadline := time.Now().Add(15 * time.Second); len(term.String()) == drawn; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("a resize storm redrew nothing")
			}
		}
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	const note = "the server is restarting: your seat is kept"
	for i, term := range terms {
		term.waitFor(t, users[i], note)
		raw := term.String()
		if leave := strings.LastIndex(raw, "\x1b[?1049l"); leave < 0 || leave > strings.LastIndex(raw, note) {
			t.Errorf("%s: the note is not below a restored terminal: %q", users[i], raw[max(0, len(raw)-1500):])
		}
		term.conn.Close() // as ssh does once its session ends
	}
	select {
	case <-srv.exited:
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not exit within its grace")
	}

	if !srv.cmd.ProcessState.Success() || !strings.Contains(srv.logs.String(), "msg=stopped") {
		t.Errorf("unclean exit %v", srv.cmd.ProcessState)
	}
}

// --shutdown-grace is a bound: a client that ignores the goodbye (never
// reads what it is sent and keeps its session open) holds the server's
// exit no longer than the grace, plus a moment to close up.
func TestShutdownGraceIsEnforced(t *testing.T) {
	const grace = 2 * time.Second
	srv := startServeProcess(t, filepath.Join(t.TempDir(), "data"), "--shutdown-grace", grace.String())
	// The client counts the bytes the server sends it, to know when the
	// server has filled the session's window and its writes block.
	raw, err := net.DialTimeout("tcp", srv.addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	conn := &countingConn{Conn: raw}
	cc, chans, reqs, err := gossh.NewClientConn(conn, srv.addr, &gossh.ClientConfig{User: "deaf",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(newClientKey(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(cc, chans, reqs)
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 256, 512, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe() // read only until the lobby shows, then never
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdinPipe(); err != nil { // open, and never closed
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	var seen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(ansi.Strip(seen.String()), "smokestack") {
		n, err := out.Read(buf)
		if err != nil {
			t.Fatalf("the lobby never showed: %v; it sent %q", err, seen.String())
		}
		seen.Write(buf[:n])
	}
	// Whole redraws at the largest size drawn until the server has sent
	// more than the session's window (x/crypto's 2 MiB) beyond what was
	// read: the window is full, so the server's next write to this client
	// blocks. More redraws, over longer than the server takes to hand on
	// a size (ten a second), make sure one is waiting.
	const window = 2 << 20
	full := int64(window + seen.Len())
	deadline := time.Now().Add(time.Minute)
	for i, more := 0, 60; more > 0; i++ {
		if conn.received.Load() > full {
			more--
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server sent %d bytes in a minute of redraws, not the %d that fill the window", conn.received.Load(), full)
		}
		if sess.WindowChange(250+i%2, 512) != nil {
			t.Fatal("the server stopped taking window sizes")
		}
		time.Sleep(5 * time.Millisecond) // paces the redraws; the loop waits on the byte count
	}

	start := time.Now()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The race detector alone sleeps a second before a process exits
	// (GORACE atexit_sleep_ms).
	const bound = 3 * time.Second
	select {
	case <-srv.exited:
	case <-time.After(grace + bound + 10*time.Second):
		t.Fatalf("the server has not exited %s after SIGTERM, with a --shutdown-grace of %s", time.Since(start).Round(time.Millisecond), grace)
	}
	took := time.Since(start)
	t.Logf("exited %s after SIGTERM", took.Round(time.Millisecond))
	if took > grace+bound {
		t.Errorf("the server exited %s after SIGTERM: more than its --shutdown-grace of %s and %s besides", took.Round(time.Millisecond), grace, bound)
	}
	// The deaf client held it to the end of the grace, its session stuck
	// writing, then was cut.
	logs := srv.logs.String()
	cut := strings.Index(logs, "sessions still open at shutdown; closing them")
	if took < grace || cut < 0 || strings.Contains(logs[:cut], "session end") {
		t.Errorf("the server did not wait out its grace for a stuck session (exited after %s): the test's client was not deaf", took)
	}
	if !srv.cmd.ProcessState.Success() || !strings.Contains(srv.logs.String(), "msg=stopped") {
		t.Errorf("unclean exit %v", srv.cmd.ProcessState)
	}
}

// countingConn counts the bytes read from its connection.
type countingConn struct {
	net.Conn
	received atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.received.Add(int64(n))
	return n, err
}
