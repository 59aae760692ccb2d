package session

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session/kit"
)

// TestJoiningUntilTheRoomAnswers: between joining and the room's first
// update the screen says it is joining, not "0 of 0 seats taken" of an
// empty waiting room.
func TestJoiningUntilTheRoomAnswers(t *testing.T) {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: []lobby.Game{{Rules: tally.Rules}}})
	alice := lobby.Player{ID: "SHA256:alice", Name: "alice"}
	m, err := l.Create(context.Background(), alice, lobby.CreateOptions{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	code := m.Code
	c, err := l.Join(context.Background(), code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g := newConnecting(&env{theme: kit.NewTheme("mono", nil)}, code, false)
	g.conn = c
	if out := ansi.Strip(g.view(80, 24)); !strings.Contains(out, "joining room "+code) || strings.Contains(out, "seats taken") {
		t.Errorf("before the first update the screen reads:\n%s", out)
	}
	g.apply(<-c.Updates())
	if out := ansi.Strip(g.view(80, 24)); !strings.Contains(out, "1 of 2 seats taken") {
		t.Errorf("after the first update the screen reads:\n%s", out)
	}
}
