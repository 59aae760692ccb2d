package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/screentest"
)

// typeText types s as a terminal sends it: a key a character, a space as
// the space key carrying its rune.
func (d *driver) typeText(s string) {
	for _, r := range s {
		k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}
		if r == ' ' {
			k.Type = tea.KeySpace
		}
		d.send(k)
	}
}

// say opens the chat if need be, types text and sends it.
func (d *driver) say(text string) {
	d.t.Helper()
	if !strings.Contains(d.view(), "say: ") {
		d.keys("t")
	}
	d.typeText(text)
	d.keys("enter")
}

// While the player types in the chat no key is a game's: not the move
// keys, not the overlays', not the host's, not leaving. esc stops typing,
// a second esc hides the chat, a third leaves the room.
func TestChatTypingPlaysNothing(t *testing.T) {
	l := newTestLobby()
	d := quickSolo(t, l)
	g, _ := d.game()
	d.until("alice's turn", func() bool { return g.Moves() > 0 })
	before := g.Version()
	d.keys("t")
	d.typeText("q i g E b ? R r / x")
	d.keys("right", "left", "up", "down", "tab", "shift+tab", "enter")
	d.until("the message in the chat", d.screenContains("alice: q i g E b ? R r / x"))
	view := d.view()
	for _, overlay := range []string{"KEYS", "CARD REFERENCE", "GAME LOG", "RULES", "SEAT A BOT", "END THE GAME", "search moves"} {
		if strings.Contains(view, overlay) {
			t.Errorf("typing opened %s:\n%s", overlay, view)
		}
	}
	if g.Version() != before || g.Pending() {
		t.Fatalf("typing played a move: version %d, was %d", g.Version(), before)
	}
	checkFits(t, view, 80, 24)
	d.keys("esc")
	if strings.Contains(d.view(), "say: ") || !strings.Contains(d.view(), "CHAT") {
		t.Fatalf("esc should stop typing and keep the chat:\n%s", d.view())
	}
	d.keys("esc")
	if strings.Contains(d.view(), "CHAT") || !strings.Contains(d.view(), "LOG") {
		t.Fatalf("a second esc should hide the chat and bring back the log:\n%s", d.view())
	}
	d.keys("esc") // the table is the bottom layer: esc leaves nothing
	d.until("how to leave", d.screenContains("nothing to close: q leaves the table"))
	if _, ok := d.game(); !ok {
		t.Fatalf("a third esc left the table:\n%s", d.view())
	}
	d.keys("q")
	d.until("the lobby", d.screenContains("YOUR GAMES"))
}

// Players see the spectators' channel and may hide it; spectators see
// both; /mute hides a name for the rest of the session and /unmute brings
// it back; others are not affected; what was said before a reconnect is
// there after it, and what is said while the chat is hidden is counted.
func TestChatChannelsAndMute(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 5})
	open := func(p lobby.Player, mode string) *driver {
		return newDriver(t, session.Config{Lobby: l, Player: p, Start: session.Start{Mode: mode, Code: code}})
	}
	a := open(alice, "join")
	b := open(bob, "join")
	c := open(carol, "watch")
	allInGame(t, a, b, c)

	c.say("hi from the rail")
	a.say("welcome")
	for _, d := range []*driver{a, c} {
		d.until("both channels", func() bool {
			v := d.view()
			return strings.Contains(v, "(watching) carol: hi from the rail") && strings.Contains(v, "alice: welcome")
		})
	}
	a.keys("tab")
	a.until("the spectators hidden", func() bool {
		v := a.view()
		return !strings.Contains(v, "carol: hi from") && strings.Contains(v, "spectators hidden") && strings.Contains(v, "alice: welcome")
	})
	a.keys("tab")
	a.until("the spectators shown again", a.screenContains("(watching) carol: hi from the rail"))

	a.say("/mute Carol")
	a.until("carol muted", func() bool {
		v := a.view()
		return !strings.Contains(v, "carol: hi from") && strings.Contains(v, "Carol is muted until you disconnect")
	})
	c.say("can you hear me")
	b.keys("t")
	b.until("bob hearing carol", b.screenContains("(watching) carol: can you hear me"))
	if strings.Contains(a.view(), "can you hear me") {
		t.Errorf("alice muted carol but sees her:\n%s", a.view())
	}
	a.say("/unmute carol")
	a.until("carol back", a.screenContains("(watching) carol: can you hear me"))
	a.say("/shout hello")
	a.until("an unknown command refused", a.screenContains("no command /shout"))

	// Alice leaves and comes back: the chat is there.
	a.close()
	a2 := open(alice, "join")
	a2.inGame()
	a2.keys("t")
	a2.until("the chat after a reconnect", func() bool {
		v := a2.view()
		return strings.Contains(v, "alice: welcome") && strings.Contains(v, "carol: can you hear me")
	})
	a2.keys("esc", "esc")
	b.say("back so soon?")
	a2.until("the count of new lines", a2.screenContains("1 new in the chat (t)"))
}

// Past the burst a person's messages are refused, with the reason shown
// in the chat while they type, and the text kept to send later.
func TestChatRateRefusal(t *testing.T) {
	clock := screentest.NewClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	l := lobby.New(lobby.Config{Store: mem.New(), Games: lobbyGames(),
		Now: clock.Now, Limits: lobby.Limits{ChatPerMinute: 2}})
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 5})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	for i := range 5 {
		d.say("line " + string(rune('a'+i)))
		d.until("the line sent", d.screenContains("alice: line "+string(rune('a'+i))))
	}
	d.say("one too many")
	d.until("the refusal", d.screenContains("✗ slow down: at most 2 messages a"))
	if !strings.Contains(d.view(), "say: one too many") {
		t.Errorf("the refused text is gone from the input:\n%s", d.view())
	}
	checkFits(t, d.view(), 80, 24)
}

// The lobby's chat: t opens it under the lists, messages go to everyone
// in the lobby, and the header counts what was said while it was hidden.
func TestLobbyChatScreen(t *testing.T) {
	l := newTestLobby()
	a := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24})
	b := newDriver(t, session.Config{Lobby: l, Player: bob, Width: 80, Height: 24})
	for _, d := range []*driver{a, b} {
		d.until("the lobby", d.screenContains("OPEN SEATS"))
	}
	b.keys("t")
	b.until("bob's chat loaded", b.screenContains("nothing said yet"))
	b.keys("esc", "esc")
	a.say("anyone for furnace? \x1b[2J")
	a.until("alice's line", a.screenContains("alice: anyone for furnace?"))
	b.until("the count", b.screenContains("1 new in the chat (t)"))
	b.say("me")
	a.until("bob's answer", a.screenContains("bob: me"))
	checkFits(t, a.view(), 80, 24)
	ctx := context.Background()
	if err := l.SayInLobby(ctx, carol, "/me joins"); err != nil {
		t.Fatal(err)
	}
	a.until("carol's action", a.screenContains("* carol joins"))
}

// allInGame steps every driver until each shows a started game: each
// session's join runs only as its driver steps.
func allInGame(t *testing.T, ds ...*driver) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		in := 0
		for _, d := range ds {
			d.drain()
			if g, ok := d.game(); ok && g.Started() {
				in++
			}
		}
		if in == len(ds) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d sessions in the game", in, len(ds))
		}
	}
}

// A replay shows, at each move, what was said until the next one, and at
// the final scores all of it.
func TestReplayChat(t *testing.T) {
	l := newTestLobby()
	ctx := context.Background()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 12})
	c, err := l.Join(ctx, code, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	say := func(text string) {
		if err := c.Say(ctx, text); err != nil {
			t.Fatal(err)
		}
	}
	say("before the first move")
	playSolo(t, l, code, alice, func(v *factories.View) bool { return v.Round >= 2 })
	say("in round two")
	playSolo(t, l, code, alice, func(*factories.View) bool { return false })
	say("after the end")

	d := newDriver(t, session.Config{Lobby: l, Player: alice, Start: session.Start{Mode: "replay", Code: code}})
	d.until("the replay", d.screenContains("move 0 of"))
	d.keys("t")
	d.until("the chat before the first move", d.screenContains("alice: before the first move"))
	if v := d.view(); strings.Contains(v, "in round two") || strings.Contains(v, "after the end") {
		t.Errorf("the starting position shows later chat:\n%s", v)
	}
	d.keys("]")
	d.until("round two's chat", d.screenContains("alice: in round two"))
	d.keys("end")
	d.until("the scores with the whole chat", func() bool {
		v := d.view()
		return strings.Contains(v, "GAME OVER") && strings.Contains(v, "alice: after the end") && strings.Contains(v, "alice: in round two")
	})
}
