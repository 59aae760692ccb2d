package server

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
)

// A private room cannot be joined, watched or opened on screen with its
// code alone: the answer is the same as for a code with no room. With the
// invite it can; its players come back with the code; only they and the
// host are shown the invite, never a spectator or a list.
func TestPrivateRoomNeedsItsInvite(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	r := run(t, alice, "new --players 2 --private", "")
	invite := strings.TrimSpace(r.stdout)
	code, secret, ok := lobby.ParseInvite(invite)
	if !ok || secret == "" || !strings.Contains(r.stderr, "It is private: share the whole invite") {
		t.Fatalf("new --private: %+v", r)
	}
	nobody := "ZZZZZZ"
	if code == nobody {
		nobody = "YYYYYY"
	}
	same := func(got, missing string) {
		t.Helper()
		want := strings.ReplaceAll(missing, nobody, code)
		if got != want {
			t.Errorf("with the code alone: %q; want what a code with no room gets: %q", got, want)
		}
	}
	for _, cmd := range []string{"play %s", "play %s --watch"} {
		got, missing := run(t, carol, fmt.Sprintf(cmd, code), ""), run(t, carol, fmt.Sprintf(cmd, nobody), "")
		if got.status != 1 {
			t.Errorf("%s: %+v", fmt.Sprintf(cmd, code), got)
		}
		same(got.stdout, missing.stdout)
		same(got.stderr, missing.stderr)
	}
	_, scr := ptySession(t, carol, "watch "+code, 100, 30)
	scr.waitFor(t, "no room")
	_, scr = ptySession(t, carol, "join "+code, 100, 30)
	scr.waitFor(t, "no room")

	// Carol watches with the invite; bob sits down with it and the game
	// starts when alice, the host, takes her seat with the code alone.
	w := startPlay(t, carol, "play "+invite+" --watch")
	b := startPlay(t, bob, "play "+strings.ToLower(code+"-"+secret[:6]+"-"+secret[6:]))
	if l := <-b.lines; l.Error != "" || l.Invite != invite {
		t.Fatalf("bob with the invite: %+v", l)
	}
	a := startPlay(t, alice, "play "+code)
	if l := <-a.lines; l.Error != "" || l.Invite != invite {
		t.Fatalf("alice, the host, with the code: %+v", l)
	}
	// Bob comes back with the code alone, as a player of the room.
	b.in.Close()
	b2 := startPlay(t, bob, "play "+code)
	if l := <-b2.lines; l.Error != "" || l.Seat < 0 {
		t.Fatalf("bob back with the code: %+v", l)
	}
	for l := range w.lines {
		if l.Error != "" || bytes.Contains(l.raw, []byte(secret)) {
			t.Fatalf("the spectator's stream: %s", l.raw)
		}
		if l.Room.Started {
			break
		}
	}
	for _, cmd := range []string{"rooms --json", "history --json"} {
		if r := run(t, bob, cmd, ""); strings.Contains(r.stdout, secret) {
			t.Errorf("%s shows the secret: %s", cmd, r.stdout)
		}
	}
}
