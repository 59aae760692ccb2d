package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// TestSoloGameThroughKeys plays a whole solo game with keystrokes only:
// s starts it from the lobby, then each move is picked in the menu with
// arrows and played with enter, until the scores show.
func TestSoloGameThroughKeys(t *testing.T) {
	l := newTestLobby()
	d := quickSolo(t, l)
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for ; moves < 5000; moves++ {
		g, _ := d.game()
		d.until("my turn or the end", func() bool {
			g, _ = d.game()
			return g.Over() || g.Moves() > 0 && !g.Pending()
		})
		if g.Over() {
			break
		}
		// Wander the menu a little, as a player would, then play.
		for range rng.IntN(4) {
			d.keys([]string{"right", "left", "down", "up", "tab"}[rng.IntN(5)])
		}
		checkFits(t, d.view(), 80, 24)
		before := g.Version()
		d.keys("enter")
		if status, _ := g.Status(); strings.HasPrefix(status, "press enter again") {
			d.keys("enter") // a costly move: confirmed
		}
		d.until("the move's result", func() bool { _, bad := g.Status(); return !g.Pending() && (g.Version() != before || bad) })
		if status, bad := g.Status(); bad {
			t.Fatalf("a menu move was refused: %s", status)
		}
	}
	d.until("the scores", d.screenContains("GAME OVER"))
	if moves < 5 {
		t.Fatalf("the game ended after %d moves", moves)
	}
	if !strings.Contains(d.view(), "The Machine") {
		t.Errorf("solo scores do not show The Machine:\n%s", d.view())
	}
	checkFits(t, d.view(), 80, 24)
	d.keys("q")
	d.until("the lobby again", d.screenContains("YOUR GAMES"))
	d.until("the result in my games", func() bool {
		return strings.Contains(d.view(), "lost ") || strings.Contains(d.view(), "you won")
	})
}

// TestIllegalMoveShowsReason plays a move from a screen that has not yet
// seen the room change: the room refuses it and the screen says why.
func TestIllegalMoveShowsReason(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 3})
	ctx := context.Background()
	cb, err := l.Join(ctx, code, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	ca, err := l.Join(ctx, code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close()
	// Find whose turn it is and give that seat a second session (the same
	// key twice) whose screen will go stale.
	var v factories.View
	if err := json.Unmarshal((<-ca.Updates()).View, &v); err != nil {
		t.Fatal(err)
	}
	who, other := alice, ca
	if v.Turn != ca.Seat() {
		who, other = bob, cb
	}
	d := newDriver(t, session.Config{Lobby: l, Player: who, Start: session.Start{Mode: "join", Code: code}})
	d.until("my moves", func() bool { g, ok := d.game(); return ok && g.Moves() > 0 })
	// Play a Take from the other session: the turn passes on.
	var ov factories.View
	for len(ov.Legal) == 0 {
		if err := json.Unmarshal((<-other.Updates()).View, &ov); err != nil {
			t.Fatal(err)
		}
	}
	var take factories.Move
	for _, m := range ov.Legal {
		if m.Kind == factories.Take {
			take = m
			break
		}
	}
	data, _ := json.Marshal(take)
	if err := other.Move(ctx, data); err != nil {
		t.Fatal(err)
	}
	// The stale screen still offers its old menu; enter sends a move the
	// room now refuses.
	g, _ := d.game()
	sel, _ := g.Selected()
	d.keys("enter")
	d.until("the refusal", func() bool { _, bad := g.Status(); return !g.Pending() && bad })
	want := other.Move(ctx, sel)
	if want == nil {
		t.Fatal("the stale move was accepted")
	}
	d.until("the refusal's reason", d.screenContains(want.Error()))
	if !strings.Contains(d.view(), want.Error()) {
		t.Fatalf("screen does not show %q:\n%s", want, d.view())
	}
}

// TestOtherHandsNeverShown checks seats and spectators never see a card
// that is only in another player's hand, on any screen they can open.
func TestOtherHandsNeverShown(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 11})
	da := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 200, Height: 60, Start: session.Start{Mode: "join", Code: code}})
	da.until("the waiting room", da.screenContains("WAITING ROOM"))
	db := newDriver(t, session.Config{Lobby: l, Player: bob, Width: 200, Height: 60, Start: session.Start{Mode: "join", Code: code}})
	dc := newDriver(t, session.Config{Lobby: l, Player: carol, Width: 200, Height: 60, Start: session.Start{Mode: "watch", Code: code}})
	for _, d := range []*driver{db, da, dc} {
		d.inGame()
	}
	// Names only in a hand: in no marketplace slot, compound or other hand.
	onlyIn := func(hand, other []factories.Card, v *factories.View) []string {
		public := map[string]bool{}
		for _, c := range other {
			public[c.Name()] = true
		}
		for _, c := range v.Market.Blueprints {
			public[c.Name()] = true
		}
		for _, c := range v.Market.Contractors {
			public[c.Name()] = true
		}
		for _, p := range v.Players {
			for _, b := range p.Compound {
				public[b.Card.Name()] = true
			}
		}
		var out []string
		for _, c := range hand {
			if !public[c.Name()] {
				out = append(out, c.Name())
			}
		}
		return out
	}
	va, vb := seatView(t, l, code, alice), seatView(t, l, code, bob)
	secretA := onlyIn(va.Hand, vb.Hand, &va)
	secretB := onlyIn(vb.Hand, va.Hand, &vb)
	if len(secretA) == 0 || len(secretB) == 0 {
		t.Fatalf("seed gives no card private to one hand: %v %v", secretA, secretB)
	}
	screens := func(d *driver) string {
		var all []string
		all = append(all, d.view())
		d.keys("i")
		for range 40 {
			all = append(all, d.view())
			d.keys("down")
		}
		d.keys("esc", "g")
		all = append(all, d.view())
		d.keys("esc", "?")
		all = append(all, d.view())
		d.keys("esc")
		return strings.Join(all, "\n")
	}
	for _, c := range []struct {
		name    string
		d       *driver
		secrets []string
	}{{"alice", da, secretB}, {"bob", db, secretA}, {"spectator", dc, append(secretA, secretB...)}} {
		text := screens(c.d)
		for _, s := range c.secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s sees %q, which is only in another hand", c.name, s)
			}
		}
	}
	// The seat's own secret cards are on its own screen.
	if !strings.Contains(da.view(), secretA[0]) {
		t.Errorf("alice does not see her own %q", secretA[0])
	}
	if g, _ := dc.game(); g.Moves() != 0 || strings.Contains(dc.view(), "MOVES") {
		t.Errorf("the spectator has a move menu")
	}
}

// TestTooSmall shows the resize message below the minimum and the board
// again once the window grows.
func TestTooSmall(t *testing.T) {
	l := newTestLobby()
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	for _, sz := range [][2]int{{79, 24}, {80, 23}, {40, 10}, {1, 1}, {0, 0}} {
		d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		if v := d.view(); !strings.Contains(v, "make the window at least 80x24") && sz[0] > 30 {
			t.Errorf("%dx%d shows:\n%s", sz[0], sz[1], v)
		}
	}
	d.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := d.view(); !strings.Contains(v, "OPEN SEATS") {
		t.Errorf("80x24 shows:\n%s", v)
	}
}

// TestGarbageKeys sends random keystrokes to every screen: nothing
// panics, and every frame fits the terminal exactly.
func TestGarbageKeys(t *testing.T) {
	l := newTestLobby()
	keys := []string{"up", "down", "left", "right", "tab", "shift+tab", "enter", "esc", "backspace", " ",
		"home", "end", "pgup", "pgdown", "?", "i", "g", "/", "b", "E", "y", "n", "s", "c", "w", "N", "r",
		"[", "]", "p", "1", "2", "x", "Z", "é", "中", "q"}
	rng := rand.New(rand.NewPCG(7, 8))
	sizes := [][2]int{{80, 24}, {120, 40}, {200, 60}, {81, 25}}
	for round := range 3 {
		d := quickSolo(t, l)
		for i := range 600 {
			k := keys[rng.IntN(len(keys))]
			if k == "q" && rng.IntN(4) != 0 {
				continue // leave now and then, not all the time
			}
			d.send(keyMsg(k))
			if i%50 == 0 {
				sz := sizes[rng.IntN(len(sizes))]
				d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			}
			if i%10 == 0 {
				d.drain()
			}
			if d.quit {
				break
			}
			w, h := session.Size(d.m)
			checkFits(t, d.view(), w, h)
			if t.Failed() {
				t.Fatalf("round %d key %d (%q)", round, i, k)
			}
		}
	}
}

// checkFits fails unless view is exactly h lines of at most w cells.
func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d:\n%s", len(lines), h, view)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("line %d is %d wide, more than %d: %q", i, n, w, l)
		}
	}
}

// TestThemes draws a game in every theme: each fits, and the colour-blind
// theme marks tools with shapes as well as colours.
func TestThemes(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 9})
	for _, theme := range kit.ThemeNames {
		d := newDriver(t, session.Config{Lobby: l, Player: alice, Theme: theme, Start: session.Start{Mode: "join", Code: code}})
		d.inGame()
		checkFits(t, d.view(), 120, 40)
		if theme == "colorblind" && !strings.Contains(d.view(), "▲ wrench") {
			t.Errorf("colorblind theme has no tool shapes:\n%s", d.view())
		}
		if theme == "mono" && strings.Contains(d.view(), "\x1b[") {
			t.Errorf("mono theme has escape codes")
		}
		d.close()
	}
}

// TestLeavingClosesTheRoom checks that leaving and quitting give the seat
// up, so no connection outlives its session.
func TestLeavingClosesTheRoom(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, HasSeed: true, Seed: 9})
	connected := func() bool {
		info, err := l.Info(context.Background(), code, alice)
		if err != nil {
			t.Fatal(err)
		}
		return info.Seats[0].Connected
	}
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}})
	d.until("the waiting room", d.screenContains("WAITING ROOM"))
	if !connected() {
		t.Fatal("alice is not connected")
	}
	d.keys("q")
	d.until("the lobby", d.screenContains("YOUR GAMES"))
	if connected() {
		t.Fatal("leaving the room kept alice connected")
	}
	d.keys("enter") // the lobby opens on the room just left
	d.until("the waiting room", d.screenContains("WAITING ROOM"))
	d.keys("ctrl+c")
	d.until("ctrl+c to quit", func() bool { return d.quit })
	eventually(t, "ctrl+c to leave the room", func() bool { return !connected() })
	// A session whose SSH connection drops leaves through its context.
	d2 := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}})
	d2.until("the waiting room", d2.screenContains("WAITING ROOM"))
	d2.cancel()
	eventually(t, "a cancelled session leaves the room", func() bool { return !connected() })
}

// TestFullTable draws three- and five-seat games at the minimum size and
// two larger ones: every seat is on the screen by name, and the board
// fits.
func TestFullTable(t *testing.T) {
	for _, seats := range []int{3, 5} {
		l := newTestLobby()
		bots := make([]string, seats-1)
		for i := range bots {
			bots[i] = "random"
		}
		code := createRoom(t, l, alice, lobby.CreateOptions{Seats: seats, HasSeed: true, Seed: 21, Bots: bots})
		for _, sz := range [][2]int{{80, 24}, {100, 30}, {200, 60}} {
			d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: sz[0], Height: sz[1], Start: session.Start{Mode: "join", Code: code}})
			d.inGame()
			checkFits(t, d.view(), sz[0], sz[1])
			for i := 2; i <= seats; i++ {
				if name := fmt.Sprintf("random bot %d", i); !strings.Contains(d.view(), name) {
					t.Errorf("%d seats at %dx%d: %s is not on the screen:\n%s", seats, sz[0], sz[1], name, d.view())
				}
			}
			d.close()
		}
	}
}

// TestReplayKeys steps a replay by move and by round.
func TestReplayKeys(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 44})
	playSolo(t, l, code, alice, func(*factories.View) bool { return false })
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "replay", Code: code}})
	d.until("the replay", d.screenContains("move 0 of"))
	d.keys("n", "right", " ")
	if !strings.Contains(d.view(), "move 3 of") {
		t.Fatalf("three steps on:\n%s", d.view())
	}
	d.keys("p")
	if !strings.Contains(d.view(), "move 2 of") {
		t.Fatalf("one back:\n%s", d.view())
	}
	d.keys("r", "4", "enter")
	if !strings.Contains(d.view(), "round 4") {
		t.Fatalf("jump to round 4:\n%s", d.view())
	}
	d.keys("[")
	if !strings.Contains(d.view(), "round 3") {
		t.Fatalf("previous round:\n%s", d.view())
	}
	d.keys("end")
	if !strings.Contains(d.view(), "GAME OVER") {
		t.Fatalf("end:\n%s", d.view())
	}
	checkFits(t, d.view(), 80, 24)
	d.keys("q")
	d.until("the lobby", d.screenContains("YOUR GAMES"))
}

// TestKeysArrivingTogether sends keystrokes the way a quick typist or a
// script reaches the program over SSH: several runes in one message. They
// act as if typed one by one, and a space in the move search counts once.
func TestKeysArrivingTogether(t *testing.T) {
	l := newTestLobby()
	d := quickSolo(t, l)
	g, _ := d.game()
	d.until("my market turn", func() bool { return g.Moves() > 0 && !g.Pending() })

	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/take")})
	if on, filter := g.Filter(); !on || filter != "take" {
		t.Fatalf("after the burst \"/take\": filtering %v, filter %q; want the search open on \"take\"", on, filter)
	}
	var mv factories.Move
	if raw, ok := g.Selected(); !ok || json.Unmarshal(raw, &mv) != nil || mv.Kind != factories.Take {
		t.Fatalf("the search selects %s, want a Take", raw)
	}

	d.keys("esc", "/", "t", "h", "e", " ", "b")
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("lue")})
	if _, filter := g.Filter(); filter != "the blue" {
		t.Errorf("filter %q after typing \"the blue\" with a space key, want it verbatim", filter)
	}
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("pasted text"), Paste: true})
	if _, filter := g.Filter(); !strings.HasSuffix(filter, "pasted text") {
		t.Errorf("a bracketed paste should reach the search whole; filter %q", filter)
	}
}

// seatView is the seat's view of the room now, through a second
// connection of the same key.
func seatView(t *testing.T, l *lobby.Lobby, code string, p lobby.Player) factories.View {
	t.Helper()
	c, err := l.Join(context.Background(), code, p)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var v factories.View
	if err := json.Unmarshal((<-c.Updates()).View, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRulesScreens: r in a game and R in the lobby open the rules, pages
// turn with the arrows, every page fits at 80x24, and esc goes back.
func TestRulesScreens(t *testing.T) {
	l := newTestLobby()
	d := quickSolo(t, l)
	d.keys("r")
	if !strings.Contains(d.view(), "RULES  Fantastic Factories · page 1 of 5 · The goal") {
		t.Fatalf("r in the game:\n%s", d.view())
	}
	pages := []string{"The goal", "The market phase", "Headquarters", "Building and using cards", "Solo: The Machine"}
	for i, want := range pages {
		if !strings.Contains(d.view(), want) {
			t.Errorf("page %d lacks %q:\n%s", i+1, want, d.view())
		}
		checkFits(t, d.view(), 80, 24)
		d.keys("right")
	}
	d.keys("left", "left")
	if !strings.Contains(d.view(), "page 3 of 5") {
		t.Errorf("back two pages from the last:\n%s", d.view())
	}
	d.keys("esc")
	if strings.Contains(d.view(), "RULES") || !strings.Contains(d.view(), "MARKETPLACE") {
		t.Errorf("esc did not close the rules:\n%s", d.view())
	}
	d.keys("?", "r")
	if !strings.Contains(d.view(), "page 1 of 5") {
		t.Errorf("r from the keys screen:\n%s", d.view())
	}
	d.keys("esc", "q")
	d.until("the lobby", d.screenContains("YOUR GAMES"))
	d.keys("R")
	if !strings.Contains(d.view(), "Fantastic Factories: The goal") {
		t.Errorf("R in the lobby:\n%s", d.view())
	}
	d.keys("esc")
	if !strings.Contains(d.view(), "OPEN SEATS") {
		t.Errorf("esc in the lobby's rules:\n%s", d.view())
	}
}

// TestCostlyMovesNeedASecondEnter: Done (which ends the work phase) is
// played only on a second enter; any other key in between takes it back,
// and a change at the table asks again.
func TestCostlyMovesNeedASecondEnter(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 43})
	playSolo(t, l, code, alice, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.until("the work phase", func() bool { g, ok := d.game(); return ok && g.Moves() > 0 })
	g, _ := d.game()
	// Find Done: the last group.
	d.keys("/", "d", "o", "n", "e")
	var mv factories.Move
	if raw, ok := g.Selected(); !ok || json.Unmarshal(raw, &mv) != nil || mv.Kind != factories.Done {
		t.Fatalf("the search did not find Done: %s", raw)
	}
	before := g.Version()
	d.keys("enter")
	if status, _ := g.Status(); !strings.Contains(status, "press enter again to play the move marked ⏎") || g.Version() != before || g.Pending() {
		t.Fatalf("one enter on Done: status %q, version %d", status, g.Version())
	}
	if !strings.Contains(d.view(), "⏎ Done with the work phase") {
		t.Errorf("the waiting move is not marked:\n%s", d.view())
	}
	d.keys("down", "/", "d", "o", "n", "e", "enter")
	if status, _ := g.Status(); !strings.HasPrefix(status, "press enter again") {
		t.Fatalf("after another key, enter asks again: %q", status)
	}
	d.keys("enter")
	d.until("Done played", func() bool { return !g.Pending() && g.Version() > before })
	if status, bad := g.Status(); bad || !strings.Contains(status, "played") {
		t.Errorf("after the second enter: %q", status)
	}
}

// TestInfoOnTheHeadquarters: i on the Headquarters (or any part of the
// board that is not a card) explains it, not some unrelated card.
func TestInfoOnTheHeadquarters(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 43})
	playSolo(t, l, code, alice, func(v *factories.View) bool { return v.Phase == factories.WorkPhase })
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "join", Code: code}})
	d.until("the work phase", func() bool { g, ok := d.game(); return ok && g.Moves() > 0 })
	for range 5 {
		if strings.Contains(d.view(), "◂ Headquarters ▸") {
			break
		}
		d.keys("right")
	}
	d.keys("i")
	for _, want := range []string{"CARD REFERENCE", "Headquarters  how it works", "Matching bonus", "more in the rules: press r", "▸ Headquarters  your board"} {
		if !strings.Contains(d.view(), want) {
			t.Errorf("i on the Headquarters lacks %q:\n%s", want, d.view())
		}
	}
}

// A private room from the lobby's join prompt: the code alone finds
// nothing, the invite (typed loosely) seats bob, who is shown it to share;
// carol, watching with it, is shown it too, to come back with: in the
// header, where the code alone would not let her back in.
func TestPrivateRoomInvite(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	m, err := l.Create(ctx, alice, lobby.CreateOptions{Seats: 3, HasSeed: true, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	bobs := newDriver(t, session.Config{Lobby: l, Player: bob, Width: 80, Height: 24})
	bobs.until("the lobby", bobs.screenContains("OPEN SEATS"))
	bobs.keys("c", m.Code, "enter")
	bobs.until("the code refused", bobs.screenContains("no room"))
	bobs.keys("c", strings.ToLower(m.Code+"-"+m.Secret[:6]+"-"+m.Secret[6:]), "enter")
	bobs.until("the waiting room", bobs.screenContains("bob (you)"))
	if !strings.Contains(bobs.view(), "Share the invite "+m.Invite()) {
		t.Errorf("bob is not shown the invite to share:\n%s", bobs.view())
	}
	carols := newDriver(t, session.Config{Lobby: l, Player: carol, Width: 80, Height: 24})
	carols.until("the lobby", carols.screenContains("OPEN SEATS"))
	carols.keys("w", m.Invite(), "enter")
	carols.until("the waiting room", carols.screenContains("You are watching"))
	if v := carols.view(); !strings.Contains(v, "room "+m.Invite()+" · watching") {
		t.Errorf("the spectator who came in with the invite is not shown it:\n%s", v)
	}
}

// Past the lookup limit the program ends with the lobby's refusal, for
// the server to end the connection with.
func TestLookupLimitEndsTheProgram(t *testing.T) {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: []lobby.Game{{Rules: played[0].Rules}},
		Limits: lobby.Limits{LookupMisses: 1, LookupWindow: time.Hour}})
	d := newDriver(t, session.Config{Lobby: l, Player: carol, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("c", "ZZZZZZ", "enter")
	d.until("a miss", d.screenContains("no room"))
	d.keys("c", "YYYYYY", "enter")
	d.until("the program to end", func() bool { return d.quit })
	if err := d.m.(*session.Model).Refused(); err == nil || !strings.Contains(err.Error(), "too many wrong room codes with your key") {
		t.Errorf("the program ended refused by %v", err)
	}
}
