package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestEndedByHostInTheReadersWords: the scores of a game its host ended
// say so in the reader's language (the board was handed the room's
// English reason, "ended by the host"), and so does the header, which
// read as the turn the game stopped on ("round 2 · your turn").
func TestEndedByHostInTheReadersWords(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Bots: []string{"greedy"}})
	if c, err := l.Join(ctx, code, alice); err != nil {
		t.Fatal(err)
	} else {
		defer c.Close()
	}
	if err := l.End(ctx, code, alice); err != nil {
		t.Fatal(err)
	}
	want := lang.For(lang.Polish).T("session.room.endedByHost")
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Lang: lang.Polish, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.until("the reason, in Polish", d.screenContains(want))
	v := d.view()
	if strings.Contains(v, lobby.EndedByHost) {
		t.Errorf("the room's English reason on a Polish screen:\n%s", v)
	}
	if head := strings.SplitN(v, "\n", 2)[0]; !strings.Contains(head, want) {
		t.Errorf("the header of a game ended early still reads as the turn it stopped on: %q", head)
	}
}
