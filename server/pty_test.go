package server

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
)

// bareLF returns where s has a "\n" without a "\r" before it, or -1.
func bareLF(s string) int {
	for i := range len(s) {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			return i
		}
	}
	return -1
}

// around is s near i, to show where a test found something.
func around(s string, i int) string { return s[max(0, i-80):min(len(s), i+40)] }

// A terminal session's writes are made "\r\n" exactly as the library's
// emulated PTY made them, on stdout and stderr alike, and say they wrote
// what they were given.
func TestTermSessionWritesAsPtyWriter(t *testing.T) {
	cases := []string{"", "a", "\n", "\r\n", "\r\r\n", "\n\n", "a\nb\r\nc\n\r", "\r", "\n\r\n\n\r\r\r\n",
		strings.Repeat("line\n", 2000)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = "ab\r\n"[rng.IntN(4)]
		}
		cases = append(cases, string(b))
	}
	for _, in := range cases {
		var want, got, gotErr bytes.Buffer
		if _, err := ssh.NewPtyWriter(&want).Write([]byte(in)); err != nil {
			t.Fatal(err)
		}
		ts := &termSession{Session: channelSession{w: &got, stderr: &gotErr}}
		if n, err := ts.Write([]byte(in)); n != len(in) || err != nil {
			t.Errorf("Write(%q) = %d, %v", in, n, err)
		}
		if n, err := ts.Stderr().Write([]byte(in)); n != len(in) || err != nil {
			t.Errorf("Stderr().Write(%q) = %d, %v", in, n, err)
		}
		if got.String() != want.String() || gotErr.String() != want.String() {
			t.Errorf("%q written as %q, on stderr %q; the library writes %q", in, got.String(), gotErr.String(), want.String())
		}
		if raw := rawOutput(ts); raw != ts.Session {
			t.Fatalf("the frames write to %T, not the channel", raw)
		}
	}
}

// The frames reach the terminal untranslated, so they must make every
// "\n" a "\r\n" themselves: over a game in play, from the first frame
// to the restored terminal.
func TestFramesHaveNoBareLF(t *testing.T) {
	views, _ := gameFrames(t, 120, 40, 12)
	for _, sz := range []struct{ w, h int }{{120, 40}, {80, 24}, {0, 0}} {
		var out bytes.Buffer
		f := &frames{out: &out, width: sz.w, height: sz.h, full: true}
		f.draw("\x1b[?1049h", views[0])
		for i := range 3 * len(views) {
			f.draw("", views[(i*7)%len(views)]) // out of order too: far and near jumps
			f.draw("", views[i%len(views)][:len(views[i%len(views)])/2])
		}
		f.restore()
		if !strings.Contains(out.String(), "\r\n") {
			t.Fatalf("%dx%d: no line feeds drawn: the test tests nothing", sz.w, sz.h)
		}
		if i := bareLF(out.String()); i >= 0 {
			t.Fatalf("%dx%d: a bare \\n in the frames: %q", sz.w, sz.h, around(out.String(), i))
		}
	}
}

// Over SSH with a PTY, what a session is sent has every "\n" made
// "\r\n": a command's text (ssh -t host help), a screen's frames as it
// is used and resized, its restored terminal and the note below it.
func TestPtyOutputHasNoBareLF(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))

	sess, scr := ptySession(t, c, "help", 80, 24)
	if err := sess.Wait(); err != nil {
		t.Fatalf("help: %v", err)
	}
	help := scr.raw()
	if !strings.Contains(help, "ssh -t") || !strings.Contains(help, "\r\n") {
		t.Fatalf("help with a PTY: %q", help)
	}
	if i := bareLF(help); i >= 0 {
		t.Fatalf("a bare \\n in help with a PTY: %q", around(help, i))
	}
	// Without a PTY the text is as it is.
	if r := run(t, c, "help", ""); strings.Contains(r.stdout, "\r") || !strings.Contains(r.stdout, "\n") {
		t.Fatalf("help without a PTY: %q", r.stdout)
	}

	code := strings.TrimSpace(run(t, c, "new --players 1 --difficulty easy", "").stdout)
	sess, scr = ptySession(t, c, "join "+code, 100, 30)
	scr.waitFor(t, code)
	from := scr.drawn()
	for _, key := range []string{"?", "?", "\t", "j", "j", "k", "\x1b[B", "l", "h"} {
		if _, err := io.WriteString(scr.in, key); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitUntil(t, "the keys' redraws", func() bool { return scr.drawn() > from })
	if err := sess.WindowChange(24, 80); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go srv.Shutdown(ctx)
	scr.waitFor(t, restartNote.Error())
	_ = sess.Wait()
	raw := scr.raw()
	if i := bareLF(raw); i >= 0 {
		t.Fatalf("a bare \\n on a game's terminal: %q", around(raw, i))
	}
	if !strings.Contains(raw, "\r\n"+restartNote.Error()+"\r\n") {
		t.Errorf("the note is not on a line of its own: %q", raw[max(0, len(raw)-200):])
	}
}

// channelSession is a session whose channel writes to w, and its stderr
// to stderr.
type channelSession struct {
	ssh.Session
	w, stderr io.Writer
}

func (c channelSession) Write(p []byte) (int, error) { return c.w.Write(p) }

func (c channelSession) Stderr() io.ReadWriter {
	return struct {
		io.Reader
		io.Writer
	}{nil, c.stderr}
}

// BenchmarkTerminalText measures text written to a terminal session
// (help's lines, say): made "\r\n" by termSession, and by the library's
// ptyWriter as before.
//
//	go test ./server -run '^$' -bench TerminalText -benchmem -count 5
func BenchmarkTerminalText(b *testing.B) {
	text := []byte(strings.Repeat("  join CODE      take a seat in a room\n", 40))
	for _, out := range []struct {
		name string
		w    io.Writer
	}{
		{"termSession", &termSession{Session: channelSession{w: io.Discard}}},
		{"ptyWriter", ssh.NewPtyWriter(io.Discard)},
	} {
		b.Run(out.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = out.w.Write(text)
			}
		})
	}
}
