package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
)

// dial connects to addr as a new player: a fresh ed25519 key, so every
// connection is its own identity. Host keys are not checked: smokeload
// talks to instances it started, or to ones on this machine the operator
// named (see --allow-remote).
func dial(ctx context.Context, addr, user string) (*gossh.Client, error) {
	key, err := newKey()
	if err != nil {
		return nil, err
	}
	cfg := &gossh.ClientConfig{
		User:            user,
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         10 * time.Second,
	}
	if deadline, ok := ctx.Deadline(); ok {
		cfg.Timeout = min(cfg.Timeout, time.Until(deadline))
	}
	c, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		return nil, fmt.Errorf("ssh %s@%s: %w", user, addr, err)
	}
	return c, nil
}

// newKey makes a player's key: a fresh ed25519 one.
func newKey() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return gossh.NewSignerFromKey(priv)
}

// runCommand runs an exec command and returns what it printed on stdout.
func runCommand(c *gossh.Client, cmd string) (string, error) {
	s, err := c.NewSession()
	if err != nil {
		return "", err
	}
	defer s.Close()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr = &out, &errOut
	if err := s.Run(cmd); err != nil {
		return "", fmt.Errorf("%s: %w: %s", cmd, err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// playLine is one line of the play protocol and when it arrived.
type playLine struct {
	lobby.Update
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	at    time.Time
}

// playStream is one `play CODE` (or `play CODE --watch`) session.
type playStream struct {
	name  string
	sess  *gossh.Session
	in    io.WriteCloser
	lines chan playLine // closed when the session's output ends
	last  playLine      // the newest update; only the room's driver touches it
}

func startPlay(c *gossh.Client, name, cmd string) (*playStream, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	in, err := sess.StdinPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		sess.Close()
		return nil, err
	}
	start := func() error { return sess.Start(cmd) }
	if cmd == "" {
		start = sess.Shell // the lobby, as `ssh host` opens it
	}
	if err := start(); err != nil {
		sess.Close()
		return nil, fmt.Errorf("%s: %s: %w", name, cmd, err)
	}
	p := &playStream{name: name, sess: sess, in: in, lines: make(chan playLine, 64)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			l := playLine{at: time.Now()}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				l.Error = fmt.Sprintf("smokeload: line is not JSON: %v: %.200q", err, sc.Text())
			}
			p.lines <- l
		}
	}()
	return p, nil
}

// send writes one move line.
func (p *playStream) send(move json.RawMessage) error {
	var line bytes.Buffer // one line, whatever the bot's JSON looks like
	if err := json.Compact(&line, move); err != nil {
		return fmt.Errorf("%s: the bot's move: %w", p.name, err)
	}
	line.WriteByte('\n')
	if _, err := p.in.Write(line.Bytes()); err != nil {
		return fmt.Errorf("%s: send move: %w", p.name, err)
	}
	return nil
}

// await reads lines until done holds for one and returns it. An error
// line fails: moves are made one at a time, so none should be refused.
func (p *playStream) await(ctx context.Context, what string, done func(playLine) bool) (playLine, error) {
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return l, fmt.Errorf("%s: session ended while waiting for %s (at version %d)", p.name, what, p.last.Version)
			}
			if l.Error != "" {
				return l, fmt.Errorf("%s: %s", p.name, l.Error)
			}
			if !l.OK {
				p.last = l
			}
			if done(l) {
				return l, nil
			}
		case <-ctx.Done():
			return playLine{}, fmt.Errorf("%s: no %s: %w (at version %d)", p.name, what, context.Cause(ctx), p.last.Version)
		}
	}
}

// atVersion returns the update that shows move n, which may be in already.
func (p *playStream) atVersion(ctx context.Context, n int) (playLine, error) {
	is := func(l playLine) bool { return !l.OK && l.Version == n && len(l.View) > 0 }
	if is(p.last) {
		return p.last, nil
	}
	return p.await(ctx, fmt.Sprintf("update at version %d", n), is)
}

// close ends the session; its output goroutine ends with it.
func (p *playStream) close() {
	p.in.Close()
	p.sess.Close()
	for range p.lines { // drain, so the reader can finish
	}
}

// screen is a terminal session (`watch CODE` on a PTY) as the player's
// terminal receives it: it notes when each chunk of output arrives.
type screen struct {
	name string
	sess *gossh.Session
	in   io.WriteCloser

	mu      sync.Mutex
	last    time.Time // arrival of the newest output
	mark    time.Time // look for output from here on
	first   time.Time // arrival of the first output at or after mark
	text    []byte    // the output while it is small, for waitText
	maxText int       // how much of it to keep; 0 means maxScreenText, -1 none (opened)
	recent  []byte    // the output since mark, its first maxRecent bytes, if keepRecent
	// keepRecent says the output since mark is to be read (watchText).
	keepRecent bool
	total      int64     // bytes received in all
	title      titleScan // the window titles, which say whether the seat may act (turns.go)
	changed    chan struct{}
	ended      chan struct{} // closed when the session is over
}

// maxScreenText bounds what a screen keeps for waitText; only the first
// frames are ever searched.
const maxScreenText = 1 << 20

func startScreen(c *gossh.Client, name, cmd string, width, height int) (*screen, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	s := &screen{name: name, sess: sess, changed: make(chan struct{}, 1), ended: make(chan struct{})}
	// Input stays open: the server ends a terminal session whose input ends.
	if s.in, err = sess.StdinPipe(); err != nil {
		sess.Close()
		return nil, err
	}
	sess.Stdout, sess.Stderr = s, s // one terminal shows both
	if err := sess.RequestPty("xterm-256color", height, width, gossh.TerminalModes{gossh.ECHO: 0}); err != nil {
		sess.Close()
		return nil, fmt.Errorf("%s: pty: %w", name, err)
	}
	start := func() error { return sess.Start(cmd) }
	if cmd == "" {
		start = sess.Shell // the lobby, as `ssh host` opens it
	}
	if err := start(); err != nil {
		sess.Close()
		return nil, fmt.Errorf("%s: %s: %w", name, cmd, err)
	}
	go func() {
		sess.Wait()
		close(s.ended)
	}()
	return s, nil
}

// Write takes output as it arrives from the server.
func (s *screen) Write(p []byte) (int, error) {
	now := time.Now()
	s.mu.Lock()
	s.last = now
	s.total += int64(len(p))
	s.title.feed(p)
	if !s.mark.IsZero() && s.first.IsZero() && !now.Before(s.mark) {
		s.first = now
	}
	keep := s.maxText
	if keep == 0 {
		keep = maxScreenText
	}
	if len(s.text)+len(p) <= keep {
		s.text = append(s.text, p...)
	}
	if s.keepRecent && !s.mark.IsZero() && !now.Before(s.mark) && len(s.recent) < maxRecent {
		s.recent = append(s.recent, p[:min(len(p), maxRecent-len(s.recent))]...)
	}
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// seat is what the screen's window titles say of the player's seat.
func (s *screen) seat() seatView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.title.view()
}

// received is the bytes the screen has received so far.
func (s *screen) received() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// waitText waits until the screen has shown want.
func (s *screen) waitText(ctx context.Context, want string) error {
	for {
		s.mu.Lock()
		shown := strings.Contains(ansi.Strip(string(s.text)), want)
		s.mu.Unlock()
		if shown {
			return nil
		}
		select {
		case <-s.changed:
		case <-s.ended:
			return fmt.Errorf("%s: the session ended without showing %q", s.name, want)
		case <-ctx.Done():
			return fmt.Errorf("%s: screen never showed %q: %w", s.name, want, context.Cause(ctx))
		}
	}
}

// quiet waits until nothing has arrived for d, so that whatever arrives
// next was caused by what happens next.
func (s *screen) quiet(ctx context.Context, d time.Duration) error {
	for {
		s.mu.Lock()
		left := d - time.Since(s.last)
		s.mu.Unlock()
		if left <= 0 {
			return nil
		}
		t := time.NewTimer(left)
		select {
		case <-s.changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s: screen never went quiet for %s: %w", s.name, d, context.Cause(ctx))
		}
		t.Stop()
	}
}

// watch starts looking for the first output arriving at or after from.
func (s *screen) watch(from time.Time) { s.watchFrom(from, false) }

// watchText is watch, keeping the output from then on for sinceWatch.
func (s *screen) watchText(from time.Time) { s.watchFrom(from, true) }

func (s *screen) watchFrom(from time.Time, keep bool) {
	s.mu.Lock()
	s.mark, s.first, s.recent, s.keepRecent = from, time.Time{}, s.recent[:0], keep
	s.mu.Unlock()
}

// opened says the screen showed what waitText waited for: its output is
// no longer kept, only timed. Thousands of screens each copying their
// first 64 KB into a growing buffer were most of the clients' copying
// and a good part of their heap.
func (s *screen) opened() {
	s.mu.Lock()
	s.text, s.maxText = nil, -1
	s.mu.Unlock()
}

// maxRecent bounds what a screen keeps of its output since watch: a
// status line's redraw is all that is read of it.
const maxRecent = 16 << 10

// sinceWatch is the screen's output since watch, escapes removed.
func (s *screen) sinceWatch() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.Strip(string(s.recent))
}

// firstOutput returns when the first output since watch arrived, waiting
// for it until ctx ends.
func (s *screen) firstOutput(ctx context.Context) (time.Time, error) {
	for {
		s.mu.Lock()
		first := s.first
		s.mu.Unlock()
		if !first.IsZero() {
			return first, nil
		}
		select {
		case <-s.changed:
		case <-ctx.Done():
			return time.Time{}, context.Cause(ctx)
		}
	}
}

// close ends the terminal session.
func (s *screen) close() {
	s.in.Close()
	s.sess.Close()
}
