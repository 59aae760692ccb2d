// Package redistest starts throwaway redis-server processes: for tests
// (Start, with the skip-or-fail policy every Redis test shares) and for
// tools that need a Redis of their own for a while (Launch).
package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a redis-server on a free loopback port with its data in a
// directory of its own and the append-only file on, so a restart keeps
// what was acknowledged — like a production deployment. Or, in a test with
// REDIS_URL set, a server somebody else runs.
type Server struct {
	// URL is redis://127.0.0.1:PORT/0, or REDIS_URL.
	URL string
	// External is true when REDIS_URL points at a server the test did not
	// start, which it therefore cannot restart.
	External bool

	t    testing.TB // nil for Launch
	bin  string
	port int
	dir  string
	// args follow the usual ones: a replica's --replicaof, say.
	args []string
	// sentinel, when set, is the config file of a sentinel this is.
	sentinel string
	cmd      *exec.Cmd
	// exited closes when cmd's process has been waited for.
	exited chan struct{}
}

// ErrNoRedis is Launch's error when there is no redis-server in PATH.
var ErrNoRedis = errors.New("redis-server not found in PATH (install redis-server)")

var warnNoRedis sync.Once

// Start gives the test a Redis: REDIS_URL if set, else a fresh redis-server
// killed when the test ends. Without redis-server the test is skipped
// loudly, and fails when CI is set, so a CI image without Redis cannot pass
// silently.
func Start(t testing.TB) *Server {
	t.Helper()
	if url := os.Getenv("REDIS_URL"); url != "" {
		return &Server{t: t, URL: url, External: true}
	}
	return startLocal(t, binary(t))
}

// StartOwn gives the test a fresh redis-server as Start does, for a test
// that needs a Redis nobody else uses: with REDIS_URL set it is skipped,
// saying why it needs its own.
func StartOwn(t testing.TB, why string) *Server {
	t.Helper()
	if os.Getenv("REDIS_URL") != "" {
		t.Skip("REDIS_URL is set: " + why)
	}
	return startLocal(t, binary(t))
}

// binary finds redis-server, or skips the test loudly (fails it when CI
// is set).
func binary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server not found in PATH: Redis tests NOT RUN (install redis-server or set REDIS_URL)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		warnNoRedis.Do(func() {
			fmt.Fprintf(os.Stderr, "\n!!!!!!!!\n!!! %s\n!!!!!!!!\n\n", msg)
		})
		t.Skip(msg)
	}
	return bin
}

// startLocal starts bin with args after the usual ones, killed when the
// test ends.
func startLocal(t testing.TB, bin string, args ...string) *Server {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, bin: bin, port: port, dir: t.TempDir(), args: args}
	s.URL = s.url()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Kill)
	return s
}

// Launch starts a fresh redis-server with its data in dir, outside any
// test. The caller must Kill it.
func Launch(dir string) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNoRedis
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, port: port, dir: dir}
	s.URL = s.url()
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) url() string { return "redis://127.0.0.1:" + strconv.Itoa(s.port) + "/0" }

// freePort finds a loopback port nobody listens on. Another process could
// take it before redis-server does; start then fails rather than talk to
// the wrong server, since redis-server will not share the port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// start runs redis-server and waits until it answers PING.
func (s *Server) start() error {
	log := filepath.Join(s.dir, "redis.log")
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "",
		"--logfile", log, "--daemonize", "no",
		// A replica (sentinel.go) syncs at once, not after 5s of waiting
		// for others to sync along.
		"--repl-diskless-sync-delay", "0"}
	if s.sentinel != "" {
		args = []string{s.sentinel, "--sentinel", "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
			"--dir", s.dir, "--logfile", log, "--daemonize", "no"}
	}
	cmd := exec.Command(s.bin, append(args, s.args...)...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.cmd, s.exited = cmd, exited
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(s.port), MaxRetries: -1})
	defer rdb.Close()
	deadline := time.Now().Add(10 * time.Second)
	for rdb.Ping(context.Background()).Err() != nil {
		select {
		case <-exited:
			s.cmd = nil
			text, _ := os.ReadFile(log)
			return fmt.Errorf("redis-server on port %d exited at start:\n%s", s.port, text)
		default:
		}
		if time.Now().After(deadline) {
			s.Kill()
			text, _ := os.ReadFile(log)
			return fmt.Errorf("redis-server on port %d did not answer within 10s:\n%s", s.port, text)
		}
		time.Sleep(10 * time.Millisecond) // polling for readiness
	}
	return nil
}

// Kill stops the server at once, as a crash would. It does nothing to an
// external server or one already stopped.
func (s *Server) Kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Down kills a server Start started, as a crash would; with REDIS_URL set
// it skips the test, which cannot restart a server it did not start.
func (s *Server) Down() {
	s.t.Helper()
	if s.External {
		s.t.Skip("REDIS_URL is set: cannot restart a server this test did not start")
	}
	s.Kill()
}

// Up starts a server Start started again, on the same port and data
// directory.
func (s *Server) Up() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}
