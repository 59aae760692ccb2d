package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestLogOverlayOpensAtNewest: g opens the whole log at its newest line,
// whether the log is short (no blank page) or long (the oldest lines above,
// a scroll away), at the minimum size.
func TestLogOverlayOpensAtNewest(t *testing.T) {
	l := newTestLobby()
	short := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 7})
	long := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 8})
	playSolo(t, l, long, alice, func(v *factories.View) bool { return v.Round >= 4 })

	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: short}})
	d.inGame()
	d.keys("enter") // take a blueprint: the log has a line or two
	d.until("the move", d.screenContains("You took"))
	d.keys("g")
	if v := d.view(); !strings.Contains(v, "GAME LOG") || !strings.Contains(v, "You took") {
		t.Fatalf("g on a short log does not show it:\n%s", v)
	}
	d.close()

	c, err := l.Join(context.Background(), long, alice)
	if err != nil {
		t.Fatal(err)
	}
	u := <-c.Updates()
	u.WordLog()
	log := u.Log
	c.Close()
	if len(log) < 40 {
		t.Fatalf("only %d log lines after three rounds", len(log))
	}
	d = newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: long}})
	d.inGame()
	d.keys("g")
	v := d.view()
	if !strings.Contains(v, log[len(log)-1]) || !strings.Contains(v, log[len(log)-2]) {
		t.Fatalf("g does not open at the newest lines %q:\n%s", log[len(log)-2:], v)
	}
	if strings.Contains(v, log[0]) {
		t.Fatalf("the oldest line %q shows with the newest:\n%s", log[0], v)
	}
	for range len(log) {
		d.keys("up")
	}
	if v := d.view(); !strings.Contains(v, log[0]) {
		t.Fatalf("scrolling up does not reach the oldest line %q:\n%s", log[0], v)
	}
}
