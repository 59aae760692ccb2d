package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// TestUndoKey: in the work phase, once alice has put a die on her
// Headquarters, her screen offers the move back (a menu group, and u in
// the help bar at 80x24); u takes it back, her log says what went, bob's
// says only that she took a move back, and a second u shows the engine's
// reason why nothing more can be.
func TestUndoKey(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 16})
	conns := map[int]*lobby.Conn{}
	var a, b *lobby.Conn
	for _, p := range []lobby.Player{alice, bob} {
		c, err := l.Join(ctx, code, p)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[c.Seat()] = c
		a, b = b, c
	}
	newest := map[int]lobby.Update{}
	view := func(seat int) factories.View {
		for {
			select {
			case u := <-conns[seat].Updates():
				newest[seat] = u
				continue
			default:
			}
			break
		}
		var v factories.View
		if err := json.Unmarshal(newest[seat].View, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The market phase, played from the seats' own sessions.
	for v := view(a.Seat()); v.Phase == factories.MarketPhase; v = view(a.Seat()) {
		tv := view(v.Turn)
		i := slices.IndexFunc(tv.Legal, func(m factories.Move) bool { return m.Kind == factories.Take })
		raw, _ := json.Marshal(tv.Legal[i])
		if err := conns[v.Turn].Move(ctx, raw); err != nil {
			t.Fatal(err)
		}
	}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	g, _ := d.game()
	d.until("the work phase", func() bool { return g.Moves() > 0 && strings.Contains(d.view(), "work phase") })
	if slices.Contains(g.Groups(), "Take back (u)") || strings.Contains(d.view(), "u take back") {
		t.Fatalf("the screen offers a move back before any move:\n%s", d.view())
	}
	v := view(a.Seat())
	i := slices.IndexFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Place && m.Action != factories.Research })
	raw, _ := json.Marshal(v.Legal[i])
	if err := a.Move(ctx, raw); err != nil {
		t.Fatal(err)
	}
	before := g.Version()
	d.until("the move back offered", func() bool { return slices.Contains(g.Groups(), "Take back (u)") })
	if !strings.Contains(d.view(), "u take back") {
		t.Errorf("the help bar does not show u:\n%s", d.view())
	}
	view(b.Seat())
	did := strings.TrimPrefix(lastLine(newest[b.Seat()]), "alice ")
	d.keys("u")
	d.until("the undo played", func() bool { return !g.Pending() && g.Version() > before })
	if status, bad := g.Status(); bad || status != "played: Take back your last move" {
		t.Fatalf("status %q (bad %v)", status, bad)
	}
	d.until("the log saying so", d.screenContains("You took back:"))
	if slices.Contains(g.Groups(), "Take back (u)") {
		t.Errorf("the screen still offers a move back")
	}
	view(b.Seat())
	if got := lastLine(newest[b.Seat()]); got != "alice took back a move" || slices.Contains(wordLog(newest[b.Seat()]), "alice "+did) {
		t.Errorf("bob's log: %q", wordLog(newest[b.Seat()]))
	}
	d.keys("u")
	d.until("the refusal", func() bool { _, bad := g.Status(); return !g.Pending() && bad })
	if status, _ := g.Status(); status != "nothing to take back yet this work phase" {
		t.Errorf("status %q; want the engine's reason", status)
	}
	checkFits(t, d.view(), 80, 24)
}

// lastLine is an update's newest log line.
func lastLine(u lobby.Update) string {
	u.WordLog()
	if len(u.Log) == 0 {
		return ""
	}
	return u.Log[len(u.Log)-1]
}

// wordLog is an update's log in English, as play words it.
func wordLog(u lobby.Update) []string {
	u.WordLog()
	return u.Log
}
