package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

func TestSSHCommand(t *testing.T) {
	for _, c := range []struct {
		addr string
		tty  bool
		args []string
		want string
	}{
		{"games.example.org:2222", true, []string{"join", "K7PXMA"}, "ssh -t -p 2222 games.example.org join K7PXMA"},
		{"games.example.org:22", true, []string{"join", "K7PXMA"}, "ssh -t games.example.org join K7PXMA"},
		{"games.example.org:22", false, nil, "ssh games.example.org"},
		{"[2001:db8::1]:2222", false, []string{"help"}, "ssh -p 2222 2001:db8::1 help"},
	} {
		if got := session.SSHCommand(c.addr, c.tty, c.args...); got != c.want {
			t.Errorf("SSHCommand(%q, %v, %q) = %q, want %q", c.addr, c.tty, c.args, got, c.want)
		}
	}
}

// TestWaitingRoomInvite: the waiting room prints the whole command to
// paste when the session knows where players reach the server — the
// code of a public room, the invite of a private one — and the lobby's
// way when it does not.
func TestWaitingRoomInvite(t *testing.T) {
	l := newTestLobby()
	public := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true})
	m, err := l.Create(context.Background(), alice, lobby.CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		addr, code, want string
	}{
		{"games.example.org:2222", public, "ssh -t -p 2222 games.example.org join " + public},
		{"games.example.org:22", m.Invite(), "ssh -t games.example.org join " + m.Invite()},
		{"", public, "Share the code " + public + " so others can join (in the lobby: c, then the code)."},
	} {
		d := newDriver(t, session.Config{Lobby: l, Player: alice, PublicAddr: c.addr, Width: 80, Height: 24,
			Start: session.Start{Mode: "join", Code: c.code}})
		d.until("the waiting room", d.screenContains("WAITING ROOM"))
		if v := d.view(); !strings.Contains(v, c.want) {
			t.Errorf("public address %q: the waiting room does not say %q:\n%s", c.addr, c.want, v)
		}
		d.close()
	}
}
