package server

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/cmd/games"
	"github.com/smokestack/smokestack/hostkeys"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/bolt"
)

// testServer is a real server on 127.0.0.1:0 over a bbolt store in a
// temporary data directory.
type testServer struct {
	*Server
	addr  string
	lobby *lobby.Lobby
	store *bolt.Store
}

// startServer starts a server; change, when given, adjusts it first.
func startServer(t *testing.T, change ...func(*Server)) *testServer {
	t.Helper()
	return startServerLimited(t, lobby.Limits{}, change...)
}

// startServerLimited starts a server whose lobby has limits.
func startServerLimited(t *testing.T, limits lobby.Limits, change ...func(*Server)) *testServer {
	t.Helper()
	return startServerIn(t, t.TempDir(), func(c *lobby.Config) { c.Limits = limits }, change...)
}

// startServerIn starts a server on the data directory dir (a restart, if
// a server used it before), its lobby configured by config.
func startServerIn(t *testing.T, dir string, config func(*lobby.Config), change ...func(*Server)) *testServer {
	t.Helper()
	return startServerOf(t, games.All(), dir, config, change...)
}

// startServerOf starts a server offering the games gs, as a binary
// built with that registry would.
func startServerOf(t *testing.T, gs []games.Game, dir string, config func(*lobby.Config), change ...func(*Server)) *testServer {
	t.Helper()
	if err := games.Check(gs); err != nil {
		t.Fatal(err)
	}
	key, err := hostkeys.Ensure(filepath.Join(dir, hostkeys.FileName))
	if err != nil {
		t.Fatal(err)
	}
	st, err := bolt.Open(filepath.Join(dir, "rooms.db"))
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.DiscardHandler)
	if testing.Verbose() {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	metrics := NewMetrics("bolt") // the lobby reports to the server's metrics, as in serve
	cfg := lobby.Config{Store: st, Games: games.Lobby(gs), Logger: logger, Observer: metrics}
	config(&cfg)
	lb := lobby.New(cfg)
	srv, err := New(Config{HostKey: key.Signer, Lobby: lb, Screens: games.Screens(gs), Logger: logger, Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range change {
		f(srv)
	}
	addr := serveLoopback(t, srv, func() { st.Close() })
	return &testServer{Server: srv, addr: addr, lobby: lb, store: st}
}

// testGames are the test servers' games: the registry's, as
// cmd/smokestack serves them.
var testGames = games.Lobby(games.All())

// testScreens draw the test servers' games.
var testScreens = games.Screens(games.All())

// serveLoopback serves srv on 127.0.0.1:0 until the test ends, then
// closes it and runs after (to close what the server used).
func serveLoopback(t *testing.T, srv *Server, after func()) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		after()
	})
	return l.Addr().String()
}

func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dial(t *testing.T, addr, user string, auth ...gossh.AuthMethod) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatalf("dial as %s: %v", user, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// dialKey connects with one key.
func dialKey(t *testing.T, addr, user string, key gossh.Signer) *gossh.Client {
	return dial(t, addr, user, gossh.PublicKeys(key))
}

// result is what an exec command printed and its exit status.
type result struct {
	stdout, stderr string
	status         int
}

// run runs one exec command (no PTY) with stdin.
func run(t *testing.T, c *gossh.Client, cmd, stdin string) result {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out, errOut bytes.Buffer
	s.Stdout, s.Stderr, s.Stdin = &out, &errOut, strings.NewReader(stdin)
	err = s.Run(cmd)
	r := result{stdout: out.String(), stderr: errOut.String()}
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		r.status = exit.ExitStatus()
	case err != nil:
		t.Fatalf("%s: %v", cmd, err)
	}
	return r
}

// pipes are sess's stdin and stdout, taken before it starts.
func pipes(t *testing.T, sess *gossh.Session) (io.WriteCloser, io.Reader) {
	t.Helper()
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return in, out
}

// screen collects what a PTY session draws; in types keys into it.
type screen struct {
	in  io.Writer // the keyboard
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// text is the output so far without escape sequences.
func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.Strip(s.buf.String())
}

// raw is the output so far, escape sequences and all.
func (s *screen) raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitForSince waits until what the screen drew since from (a length of
// its raw output) shows want: a redraw that a key caused, say.
func (s *screen) waitForSince(t *testing.T, from int, want string) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("the screen to draw %q", want), func() bool {
		return strings.Contains(s.stretch(from, s.drawn()), want)
	})
}

// waitFor waits until the screen shows want.
func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for !strings.Contains(s.text(), want) {
		select {
		case <-ctx.Done():
			s.mu.Lock()
			raw := s.buf.String()
			s.mu.Unlock()
			t.Fatalf("screen never showed %q; it shows:\n%s\nraw: %q", want, s.text(), raw)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
