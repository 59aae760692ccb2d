package server

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby"
)

// runLobby runs srv's lobby background work, as serve does, until the
// test ends or the stop it returns is called: among it, saying in the
// store that the service runs, which is how a restart knows how long it
// was down.
func runLobby(t *testing.T, srv *testServer) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.lobby.Run(ctx)
	}()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// TestPlayThroughRestartMidClock: a server restart mid-clock. Alice's
// turn has a 10-second clock when the server goes down for 11 seconds.
// Back, she lands at her table with her turn still hers and the time
// left on it (at least the minute's reconnect window), not played by a
// bot, and plays it herself (issue 25, point 4).
func TestPlayThroughRestartMidClock(t *testing.T) {
	dir := t.TempDir()
	srv := startServerIn(t, dir, func(*lobby.Config) {})
	stop := runLobby(t, srv)
	alice, bob, code := sitTwo(t, srv.addr, "--players 2 --clock 10s --seed 7")
	alice.sees("MARKETPLACE", "⏱")
	bob.sees("alice's turn")

	// The server goes down (killed or stopped alike: the store knows when
	// it last ran) for longer than alice's whole clock.
	srv.Close()
	stop()
	srv.store.Close()
	time.Sleep(11 * time.Second) // the downtime itself, not a wait for anything
	srv = startServerIn(t, dir, func(*lobby.Config) {})
	runLobby(t, srv)

	bob.addr, alice.addr = srv.addr, srv.addr
	bob.connect("join " + code)
	bob.sees("alice's turn", "alice away")
	alice.connect("")
	alice.sees("welcome back: your move in "+code+" is waiting", "MARKETPLACE")
	left := regexp.MustCompile(`⏱ (0:[3-5]\d|1:00)`)
	alice.waitScreen("a minute or so on her clock", func(s string) bool { return left.MatchString(s) })
	alice.seesNo("ran out", "the bot played for")
	alice.press("enter")
	bob.sees("alice took ")
	bob.seesNo("the bot played for alice")
}
