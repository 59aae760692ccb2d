package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// TestGoldenRatings: the end of a game between two people shows each
// one's rating and its change, at every size.
func TestGoldenRatings(t *testing.T) {
	// A chosen seed would make a practice room, which is not rated: the
	// lobby draws this one, so the golden is the same on every run.
	l := newTestLobby(func(c *lobby.Config) { c.Seeds = func() uint64 { return 47 } })
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true})
	screentest.PlayFactories(t, l, code, alice, bob)
	goldenRun(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}}, []string{code}, "ratings: ")
}

// TestRenameInTheLobby: N changes the player's name for good, and a name
// that cannot be is refused with its reason.
func TestRenameInTheLobby(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	me, err := l.Identify(ctx, lobby.Player{ID: "SHA256:ann", Key: "SHA256:ann", Name: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	// bo keeps his name: choosing it makes his profile.
	bo, err := l.Identify(ctx, lobby.Player{ID: "SHA256:bo", Key: "SHA256:bo", Name: "bo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Rename(ctx, bo, "bo"); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, session.Config{Lobby: l, Player: me, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	rename := func(name string) {
		d.keys("N")
		for range 20 {
			d.keys("backspace")
		}
		for _, r := range name {
			d.keys(string(r))
		}
		d.keys("enter")
	}
	rename("bo")
	d.until("the refusal", d.screenContains(`"bo" is taken`))
	rename("a\u202eb")
	d.until("the refusal", d.screenContains("direction-changing"))
	rename("Ann-Lee")
	d.until("the new name", d.screenContains("you are Ann-Lee now"))
	if !strings.Contains(d.view(), "signed in as Ann-Lee") {
		t.Fatalf("the header after the rename:\n%s", d.view())
	}
	again, err := l.Identify(ctx, lobby.Player{ID: "SHA256:ann", Key: "SHA256:ann", Name: "ann"})
	if err != nil || again.Name != "Ann-Lee" {
		t.Fatalf("the next connection is %+v, %v", again, err)
	}
}
