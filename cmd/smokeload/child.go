package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/bolt"
	"github.com/smokestack/smokestack/server"
)

// serveChildMain is the server process of capacity mode: what `smokestack
// serve` runs with its default limits, over a bbolt store in a temporary
// directory, with metrics on a loopback port. It prints "SSH METRICS"
// addresses on one line, logs warnings and errors to stderr, and shuts
// down when its input ends. Its metrics listener serves Go's profiles
// too, and POST /debug/free collects garbage and returns freed memory to
// the OS, so the resident set read next is what the sessions hold.
func serveChildMain() int {
	if err := serveChild(); err != nil {
		fmt.Fprintln(os.Stderr, "smokeload server:", err)
		return 1
	}
	return 0
}

func serveChild() error {
	if os.Getenv(profileRateEnv) != "" {
		// Sample the heap finely enough to see a few hundred bytes per
		// session among a thousand.
		runtime.MemProfileRate = 16 << 10
	}
	dir, err := os.MkdirTemp("", "smokeload-server-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := bolt.Open(filepath.Join(dir, "rooms.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	key, err := newKey() // the host key
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	g, err := gameNamed(os.Getenv(gameEnv))
	if err != nil {
		return err
	}
	gs, screens := served(g)
	metrics := server.NewMetrics("bolt")
	lb := lobby.New(lobby.Config{Store: st, Games: gs, Logger: log,
		Limits: lobby.DefaultLimits(), Observer: metrics, Expire: 24 * time.Hour})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go lb.Run(ctx)
	limits := server.DefaultLimits()
	if n, _ := strconv.Atoi(os.Getenv(sessionsEnv)); 2*n > limits.Sessions {
		// An operator serving this crowd raises --max-sessions: each
		// player holds a session, and a room's first a second one for
		// a moment, to make the room.
		limits.Sessions = 2 * n
	}
	srv, err := server.New(server.Config{HostKey: key, Lobby: lb, Screens: screens, Logger: log, IdleTimeout: time.Hour,
		Limits: limits, Metrics: metrics, Frames: os.Getenv(framesEnv)})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	ml, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/", server.WithProfiles(srv.Handler()))
	mux.HandleFunc("POST /debug/free", func(w http.ResponseWriter, _ *http.Request) { debug.FreeOSMemory() })
	go (&http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}).Serve(ml)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Printf("%s %s\n", l.Addr(), ml.Addr())
	io.Copy(io.Discard, os.Stdin)
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(shut) != nil {
		srv.Close()
	}
	return <-served
}

// serverChild is `smokestack serve` as this binary runs it in a child
// process (see serveChildMain), so the server's memory, goroutines and CPU
// are its own.
type serverChild struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	addr     string
	metrics  string
	mu       sync.Mutex
	log      []string
	panicN   int
	done     chan struct{}
	stopOnce sync.Once
}

const childEnv = "SMOKELOAD_SERVER_CHILD"

// gameEnv names the game our own server process offers (--game).
const gameEnv = "SMOKELOAD_GAME"

// framesEnv is how our own server process draws terminals
// (server.Config.Frames).
const framesEnv = "SMOKELOAD_FRAMES"

// sessionsEnv is how many players our own server process is to hold
// (--sessions): past serve's default --max-sessions, the limit is raised.
const sessionsEnv = "SMOKELOAD_SESSIONS"

// profileRateEnv, set, makes our own server process sample its heap
// finely, for --profiles.
const profileRateEnv = "SMOKELOAD_FINE_HEAP_PROFILE"

// startServerChild starts our own server process, with env added to its
// environment.
func startServerChild(ctx context.Context, env []string) (*serverChild, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ch := &serverChild{done: make(chan struct{})}
	ch.cmd = exec.Command(exe)
	ch.cmd.Env = append(append(os.Environ(), env...), childEnv+"=1")
	if ch.stdin, err = ch.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := ch.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errs, err := ch.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := ch.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		defer close(ch.done)
		sc := bufio.NewScanner(errs)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			ch.mu.Lock()
			if strings.Contains(sc.Text(), "panic") {
				ch.panicN++
			}
			ch.log = append(ch.log, sc.Text())
			ch.mu.Unlock()
		}
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		ch.stop()
		return nil, fmt.Errorf("the server process said nothing: %w", err)
	}
	f := strings.Fields(line)
	if len(f) != 2 {
		ch.stop()
		return nil, fmt.Errorf("the server process said %q", line)
	}
	ch.addr, ch.metrics = f[0], f[1]
	return ch, nil
}

// stop closes the child's input, which ends it, and waits; once.
func (ch *serverChild) stop() {
	ch.stopOnce.Do(func() {
		ch.stdin.Close()
		select {
		case <-ch.done:
		case <-time.After(20 * time.Second):
			ch.cmd.Process.Kill()
		}
		ch.cmd.Wait()
	})
}

func (ch *serverChild) panics() int {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.panicN
}

func (ch *serverChild) lines() int {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return len(ch.log)
}
