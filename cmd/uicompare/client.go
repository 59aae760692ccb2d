package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// term is one player's terminal: its own SSH connection and key, a PTY
// session running an app, and a note of when output arrives and how much.
type term struct {
	name   string
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser

	mu      sync.Mutex
	last    time.Time // arrival of the newest output
	mark    time.Time // count output from here on
	first   time.Time // arrival of the first output at or after mark
	bytes   int64     // output since mark
	total   int64
	head    []byte // the first output, to see the first frame
	changed chan struct{}
}

const (
	termWidth  = 120
	termHeight = 40
	maxHead    = 64 << 10
)

// openTerm connects to addr and starts cmd on a 120x40 xterm-256color PTY.
func openTerm(ctx context.Context, addr, cmd string) (*term, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	cfg := &gossh.ClientConfig{
		User:            "player",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // our own server process on loopback
		Timeout:         10 * time.Second,
	}
	if deadline, ok := ctx.Deadline(); ok {
		cfg.Timeout = min(cfg.Timeout, time.Until(deadline))
	}
	c, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		return nil, fmt.Errorf("ssh %s: %w", addr, err)
	}
	t := &term{name: cmd, client: c, changed: make(chan struct{}, 1)}
	if t.sess, err = c.NewSession(); err != nil {
		c.Close()
		return nil, err
	}
	if t.in, err = t.sess.StdinPipe(); err != nil {
		c.Close()
		return nil, err
	}
	t.sess.Stdout, t.sess.Stderr = t, t // a terminal shows both
	if err := t.sess.RequestPty("xterm-256color", termHeight, termWidth, gossh.TerminalModes{gossh.ECHO: 0}); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: pty: %w", cmd, err)
	}
	if err := t.sess.Start(cmd); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return t, nil
}

// Write takes output as it arrives from the server.
func (t *term) Write(p []byte) (int, error) {
	now := time.Now()
	t.mu.Lock()
	t.last = now
	t.total += int64(len(p))
	if len(t.head) < maxHead {
		t.head = append(t.head, p[:min(len(p), maxHead-len(t.head))]...)
	}
	if !t.mark.IsZero() && !now.Before(t.mark) {
		t.bytes += int64(len(p))
		if t.first.IsZero() {
			t.first = now
		}
	}
	t.mu.Unlock()
	select {
	case t.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// watch starts counting output from now on and returns now.
func (t *term) watch(now time.Time) {
	t.mu.Lock()
	t.mark, t.first, t.bytes = now, time.Time{}, 0
	t.mu.Unlock()
}

// press types key.
func (t *term) press(key string) error {
	if _, err := io.WriteString(t.in, key); err != nil {
		return fmt.Errorf("%s: type: %w", t.name, err)
	}
	return nil
}

// until waits, woken by each output, until cond (called under the lock)
// holds or ctx ends.
func (t *term) until(ctx context.Context, what string, cond func() (bool, time.Duration)) error {
	for {
		t.mu.Lock()
		ok, wait := cond()
		t.mu.Unlock()
		if ok {
			return nil
		}
		timer := time.NewTimer(wait)
		if wait <= 0 {
			timer.Stop() // wait for output alone
		}
		select {
		case <-t.changed:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return fmt.Errorf("%s: %s: %w", t.name, what, context.Cause(ctx))
		}
		timer.Stop()
	}
}

// firstOutput waits for the first output since watch and returns when it
// arrived and how much has arrived since watch.
func (t *term) firstOutput(ctx context.Context) (time.Time, error) {
	var at time.Time
	err := t.until(ctx, "no output", func() (bool, time.Duration) { at = t.first; return !at.IsZero(), 0 })
	return at, err
}

// ready waits for the first frame: text, not only the escape sequences
// that set the terminal up, which come a frame earlier.
func (t *term) ready(ctx context.Context) error {
	return t.until(ctx, "no first frame", func() (bool, time.Duration) {
		return strings.TrimSpace(ansi.Strip(string(t.head))) != "", 0
	})
}

// quiet waits until nothing has arrived for d, so that whatever arrives
// next was caused by what happens next.
func (t *term) quiet(ctx context.Context, d time.Duration) error {
	return t.until(ctx, "never quiet", func() (bool, time.Duration) {
		left := d - time.Since(t.last)
		return left <= 0, left
	})
}

// sinceWatch is the output that arrived since watch.
func (t *term) sinceWatch() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes
}

func (t *term) close() {
	t.in.Close()
	t.sess.Close()
	t.client.Close()
}

// openTerms opens n terminals running cmd(i), a few at a time, and waits
// for every first frame and then until all have been quiet for settle.
func openTerms(ctx context.Context, addr string, n int, cmd func(int) string, settle time.Duration) ([]*term, error) {
	terms := make([]*term, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, 8)
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			t, err := openTerm(ctx, addr, cmd(i))
			if err == nil {
				terms[i] = t
				err = t.ready(ctx)
			}
			errs <- err
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first == nil {
		first = allQuiet(ctx, terms, settle)
	}
	if first != nil {
		closeTerms(terms)
		return nil, first
	}
	return terms, nil
}

func closeTerms(terms []*term) {
	for _, t := range terms {
		if t != nil {
			t.close()
		}
	}
}
