package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
)

// tallyLobby is a lobby of the shared layers' test game, in memory.
func tallyLobby() *lobby.Lobby {
	return lobby.New(lobby.Config{Store: mem.New(), Games: []lobby.Game{{Rules: tally.Rules, Bots: tally.Bots()}}})
}

// TestPublicListsShared: the lobby screens that read the same public
// rooms share one wording of them; a room waiting on a player's move
// says so on that player's screen alone, in a copy of its list, and the
// shared rows never change.
func TestPublicListsShared(t *testing.T) {
	ctx, l := context.Background(), tallyLobby()
	alice, bob := lobby.Player{ID: "SHA256:alice", Name: "alice"}, lobby.Player{ID: "SHA256:bob", Name: "bob"}
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 2, Public: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []lobby.Player{alice, bob} {
		c, err := l.Join(ctx, m.Code, p)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	rooms, err := l.PublicRooms(ctx, time.Now())
	if err != nil || len(rooms) != 1 || !rooms[0].Started {
		t.Fatalf("public rooms: %+v, %v; want one game in play", rooms, err)
	}
	en := lang.For(lang.English)
	pub := sharedPublic(l, en, rooms)
	if again := sharedPublic(l, en, rooms); again != pub {
		t.Error("two screens with the same read worded it twice")
	}
	// A screen in another language has its own words of the same read,
	// and takes nothing from the English ones.
	if pl := sharedPublic(l, lang.For(lang.Polish), rooms); pl == pub || !strings.HasPrefix(pl.cells[listPlay][0].state, "runda ") {
		t.Errorf("the Polish lists: %+v", pl.cells[listPlay])
	}
	if again := sharedPublic(l, en, rooms); again != pub {
		t.Error("the Polish lists took the English ones' place")
	}
	mover := alice
	if rooms[0].YourMove(bob.ID) {
		mover = bob
	}
	for _, p := range []lobby.Player{alice, bob, {ID: "SHA256:carol"}} {
		lists, rows := wordLists(l, en, p.ID, pub, nil)
		got := rows.cells[listPlay]
		if len(got) != 1 || len(lists[listPlay]) != 1 {
			t.Fatalf("%s's in-play list: %+v", p.ID, got)
		}
		if want := wordRoom(l, en, p.ID, rooms[0], listPlay); got[0] != want {
			t.Errorf("%s's row %+v, want %+v", p.ID, got[0], want)
		}
		yours := strings.Contains(got[0].state, "your move")
		if yours != (p == mover) {
			t.Errorf("%s's row says %q", p.ID, got[0].state)
		}
		if shared := &got[0] == &pub.cells[listPlay][0]; shared == yours {
			t.Errorf("%s's row shared: %v, though it is their move: %v", p.ID, shared, yours)
		}
		if rows.widest.state < ansi.StringWidth(got[0].state) {
			t.Errorf("%s's state column %d wide for %q", p.ID, rows.widest.state, got[0].state)
		}
	}
	if strings.Contains(pub.cells[listPlay][0].state, "your move") {
		t.Errorf("the shared row changed: %q", pub.cells[listPlay][0].state)
	}
}
