package main

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/factories"
)

// childEnv makes the test binary run as `smokestack` itself. The crash test
// needs the server in a process of its own, to kill it as the kernel's OOM
// killer or a pulled plug would; re-running this binary gives one without
// building the command separately, and with the same race detector.
const childEnv = "SMOKESTACK_TEST_AS_SMOKESTACK"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		// The test holds this process's stdin open and never writes to it:
		// its end means the test is gone (killed by -timeout, say), and a
		// server must not outlive it.
		go func() {
			io.Copy(io.Discard, os.Stdin)
			os.Exit(3)
		}()
		main() // exits with run's status
	}
	os.Exit(m.Run())
}

// serveProcess is `smokestack serve` running as a child process.
type serveProcess struct {
	cmd    *exec.Cmd
	logs   *syncBuffer
	exited chan struct{} // closed once the process is reaped
	addr   string
}

// startServeProcess starts the server on dir, with flags besides, and
// waits until it listens. The process is killed at the end of the test
// whatever happens.
func startServeProcess(t *testing.T, dir string, flags ...string) *serveProcess {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{logs: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(exe, append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dir, "--store", "bolt"}, flags...)...)
	// The environment could say SMOKESTACK_REDIS=… or name another data dir.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SMOKESTACK_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Env = append(p.cmd.Env, childEnv+"=1")
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.exited
		stdin.Close()
		if t.Failed() {
			t.Logf("server %d's log:\n%s", p.cmd.Process.Pid, p.logs)
		}
	})
	deadline := time.After(15 * time.Second)
	for p.addr == "" {
		if m := listening.FindStringSubmatch(p.logs.String()); m != nil {
			p.addr = m[1]
			break
		}
		select {
		case <-p.exited:
			t.Fatalf("server exited at start: %v", p.cmd.ProcessState)
		case <-deadline:
			t.Fatal("server did not start listening")
		case <-time.After(10 * time.Millisecond):
		}
	}
	return p
}

// kill ends the server with SIGKILL: no shutdown, no closing of the store.
func (p *serveProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	if p.cmd.ProcessState.Success() || strings.Contains(p.logs.String(), "shutting down") {
		t.Fatalf("the server was not killed: %v", p.cmd.ProcessState)
	}
}

// A server killed with SIGKILL in the middle of a work phase, with three
// people at the table, loses nothing: restarted on the same data directory
// it takes the same keys back to the same seats at the same version and
// view, and the game ends exactly as the same moves end it uninterrupted.
func TestSIGKILLMidWorkPhase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServeProcess(t, dir)
	tb := newTable(t, srv.addr, 6, "alice", "bob", "carol")
	tb.playUntil("the middle of a work phase", tb.midWork)
	tb.restart(srv, dir)
	if !tb.midWork() {
		t.Fatal("the restarted game is no longer mid-work-phase")
	}
	tb.finish()
}

// A player whose connection drops in the middle of a work phase is shown to
// the others as away while they play on; the same key takes the seat back,
// seeing the game as it now stands, and the game ends exactly as the same
// moves end it uninterrupted. (TestClientDropMidSession in server covers a
// drop at the start of a game, a terminal session and the lobby's view.)
func TestConnectionDropMidWorkPhase(t *testing.T) {
	srv := startServeProcess(t, filepath.Join(t.TempDir(), "data"))
	tb := newTable(t, srv.addr, 6, "alice", "bob", "carol")
	tb.playUntil("the middle of a work phase", tb.midWork)

	// Drop a seat still at work: mid-phase, with moves of its own made.
	var gone *player
	for _, p := range tb.seats {
		if tb.worked[p.seat] && !tb.ref.Players[p.seat].Done {
			gone = p
			break
		}
	}
	// No goodbye: a reset, as when a laptop lid closes on a flaky network.
	if err := gone.nc.(*net.TCPConn).SetLinger(0); err != nil {
		t.Fatal(err)
	}
	gone.nc.Close()
	tb.leave(gone)
	for _, p := range tb.present() {
		tb.await(p, gone.name+" shown away", func(l playLine) bool {
			s := l.Room.Seats[gone.seat]
			return !l.OK && !s.Connected && !s.AwaySince.IsZero() && s.Name == gone.name
		})
	}

	// The others finish their work phase without waiting.
	dropped := tb.moves
	for tb.step() {
	}
	if tb.moves == dropped || tb.ref.Phase != factories.WorkPhase || tb.ref.Players[gone.seat].Done {
		t.Fatalf("with %s away, the others played %d moves and the game went to phase %s; want moves in the same work phase",
			gone.name, tb.moves-dropped, tb.ref.Phase)
	}
	tb.sitDown(gone)
	if gone.last.Version != tb.moves || !gone.last.Room.Seats[gone.seat].Connected {
		t.Fatalf("%s is back at version %d (want %d), connected %v", gone.name, gone.last.Version, tb.moves, gone.last.Room.Seats[gone.seat].Connected)
	}
	tb.checkView(gone)
	for _, p := range tb.present() {
		if p == gone {
			continue
		}
		tb.await(p, gone.name+" shown back", func(l playLine) bool { return !l.OK && l.Room.Seats[gone.seat].Connected })
	}
	tb.finish()
}
