package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/engine/factories/bot"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// TestHeaderKeepsTheClock: at 80 columns, with three people with long
// names working at once, the header gives way in the list of who is
// working, with a marker, and keeps the turn's clock (it was cut off the
// end of the line).
func TestHeaderKeepsTheClock(t *testing.T) {
	ctx := context.Background()
	clk := &setClock{t: fixedNow().Add(-10 * time.Second)}
	l := lobby.New(lobby.Config{Store: mem.New(), Games: lobbyGames(), Now: clk.Now})
	bart := lobby.Player{ID: "SHA256:bart", Name: "Bartholomew Bo"}
	chris := lobby.Player{ID: "SHA256:chris", Name: "Christabel Cox"}
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 3, HasSeed: true, Seed: 51, Clock: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var conns []*lobby.Conn
	for _, p := range []lobby.Player{alice, bart, chris} {
		c, err := l.Join(ctx, m.Invite(), p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		conns = append(conns, c)
	}
	// The market phase, each seat's turn played by a bot, up to the work
	// phase, where all three work at once.
	b, _ := bot.New("random", 5)
	latest := make([]factories.View, len(conns))
	seen := 0 // the room's version the views in latest are of
	// next waits for conns[i]'s view of the table past version.
	next := func(i, version int) {
		for {
			select {
			case u := <-conns[i].Updates():
				if u.Version <= version || len(u.View) == 0 {
					continue
				}
				latest[i] = factories.View{}
				if err := json.Unmarshal(u.View, &latest[i]); err != nil {
					t.Fatal(err)
				}
				seen = u.Version
				return
			case <-time.After(10 * time.Second):
				t.Fatal("no update from the room")
			}
		}
	}
	for i := range conns {
		next(i, -1)
	}
	for range 200 {
		if latest[0].Phase != factories.MarketPhase {
			break
		}
		before := seen
		for i, c := range conns {
			if len(latest[i].Legal) == 0 {
				continue
			}
			data, _ := json.Marshal(b.Choose(latest[i]))
			if err := c.Move(ctx, data); err != nil {
				t.Fatalf("seat %d: %v (%s)", i, err, data)
			}
			break
		}
		for i := range conns {
			next(i, before)
		}
	}
	if latest[0].Phase != factories.WorkPhase {
		t.Fatal("the work phase never came")
	}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: m.Invite()}})
	d.until("the work phase", d.screenContains("work phase"))
	head := strings.SplitN(d.view(), "\n", 2)[0]
	if w := ansi.StringWidth(head); w > 80 {
		t.Fatalf("the header is %d wide: %q", w, head)
	}
	// The names that do not fit are counted, never cut mid-name
	// ("rando…", issue 36, point 9).
	if !strings.Contains(head, "⏱ 1:") || !strings.Contains(head, " +") {
		t.Fatalf("the header lost the clock, or gave way without a count: %q", head)
	}
}
