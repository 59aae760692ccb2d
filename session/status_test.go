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

// TestPlayedNoteGoesWithItsRound: "played: Take …" stays while its round
// runs and is gone once the next round begins (it stayed for the whole
// game, to the final scores).
func TestPlayedNoteGoesWithItsRound(t *testing.T) {
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 1, HasSeed: true, Seed: 52, Options: json.RawMessage(`{"difficulty":"easy"}`)})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	d.inGame()
	g, _ := d.game()
	d.until("alice's market turn", func() bool { return g.Moves() > 0 })
	d.keys("enter")
	d.until("the note", func() bool { s, _ := g.Status(); return strings.HasPrefix(s, "played: Take ") })
	// The rest of the round, through another connection of hers.
	playSolo(t, l, code, alice, func(v *factories.View) bool { return v.Round == 2 })
	d.until("round 2", d.screenContains("round 2"))
	if s, _ := g.Status(); s != "" {
		t.Errorf("in round 2 the status line still says %q:\n%s", s, d.view())
	}
}

// TestChatCountBeforeNote: while the chat is hidden, what others said is
// counted on the status line even after a move (the note of the move
// played hid the count until the next key).
func TestChatCountBeforeNote(t *testing.T) {
	d, g, b := aliceAndBob(t)
	d.until("a turn", func() bool { return g.Moves() > 0 || strings.Contains(d.view(), "bob's turn") })
	if g.Moves() == 0 {
		takeTurn(t, b)
	}
	d.until("alice's market turn", func() bool { return g.Moves() > 0 })
	d.keys("enter")
	d.until("the note", d.screenContains("played: Take "))
	if err := b.Say(context.Background(), "nice pick"); err != nil {
		t.Fatal(err)
	}
	d.until("the count of bob's line", d.screenContains("1 new in the chat (t)"))
}

// TestRefusalGoesAtTheNextTurn: enter while another seat chooses says
// "nothing to play right now"; once the seat's turn comes, that line is
// gone (it stayed into the next turn, where there was something to play).
func TestRefusalGoesAtTheNextTurn(t *testing.T) {
	d, g, b := aliceAndBob(t)
	d.until("a turn", func() bool { return g.Moves() > 0 || strings.Contains(d.view(), "bob's turn") })
	if g.Moves() > 0 {
		d.keys("enter") // alice's is first: she takes a card
		// Her move's answer can come after the update that shows bob's
		// turn; wait for it, or its note would replace the refusal below.
		d.until("her move's answer", func() bool { s, _ := g.Status(); return strings.HasPrefix(s, "played: ") })
	}
	d.until("bob's turn", d.screenContains("bob's turn"))
	d.keys("enter")
	if s, bad := g.Status(); !bad || s != "nothing to play right now" {
		t.Fatalf("enter on bob's turn: %q", s)
	}
	takeTurn(t, b)
	d.until("alice's turn", func() bool { return g.Moves() > 0 })
	if s, _ := g.Status(); s != "" {
		t.Errorf("on alice's turn the status line still says %q", s)
	}
}

// TestJoinByPastedLine: the line the waiting room gives to share, pasted
// whole at the lobby's join prompt, seats the player (it was cut at 40
// characters and refused as "not a room code").
func TestJoinByPastedLine(t *testing.T) {
	l := newTestLobby()
	m, err := l.Create(context.Background(), alice, lobby.CreateOptions{Seats: 3, HasSeed: true, Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, session.Config{Lobby: l, Player: bob, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("c", session.SSHCommand("games.example-long-host-name.org:2222", true, "join", m.Invite()), "enter")
	d.until("the waiting room", d.screenContains("bob (you)"))
}

// TestLogOverlayKeys: the whole log's help bar says how to scroll it (it
// had the card reference's "↑ previous · ↓ next · enter choose").
func TestLogOverlayKeys(t *testing.T) {
	d := quickSolo(t, newTestLobby())
	d.keys("g")
	d.until("the log", d.screenContains("GAME LOG"))
	lines := strings.Split(d.view(), "\n")
	if bar := lines[len(lines)-1]; !strings.Contains(bar, "↑/↓ scroll") || !strings.Contains(bar, "pgup/pgdn page") || strings.Contains(bar, "choose") {
		t.Errorf("the log's help bar: %q", bar)
	}
}

// TestNewRoomFormWords: a private room is joined by its invite (the code
// alone lets nobody in), and one bot is in "seat 4", not "seats 4–4".
func TestNewRoomFormWords(t *testing.T) {
	d := newDriver(t, session.Config{Lobby: newTestLobby(), Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("n")
	d.until("the form", d.screenContains("NEW ROOM"))
	d.keys("down", "right", "right", "down") // 4 seats, then visibility
	for range 2 {
		if !strings.Contains(d.view(), "private: ") {
			d.keys("right")
		}
	}
	if !strings.Contains(d.view(), "private: join by invite only") {
		t.Errorf("a private room's words:\n%s", d.view())
	}
	d.keys("down", "right") // one bot (difficulty, for solo games, is hidden)
	if !strings.Contains(d.view(), "1 (seat 4)") {
		t.Errorf("one bot's seat:\n%s", d.view())
	}
}

// TestLobbyPromptKeys: while a name or a code is typed, the help bar says
// enter and esc, not the lobby's keys (q there is a letter, not quit);
// the note of the last rename goes when a dialog opens.
func TestLobbyPromptKeys(t *testing.T) {
	l := newTestLobby()
	me, err := l.Identify(context.Background(), lobby.Player{ID: "SHA256:ann", Key: "SHA256:ann", Name: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, session.Config{Lobby: l, Player: me, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	bar := func() string { lines := strings.Split(d.view(), "\n"); return lines[len(lines)-1] }
	d.keys("N")
	if b := bar(); !strings.Contains(b, "enter confirm") || !strings.Contains(b, "esc cancel") || strings.Contains(b, "quit") {
		t.Errorf("the name prompt's help bar: %q", b)
	}
	d.keys("backspace", "backspace", "backspace", "backspace", "backspace", "Alicia", "enter")
	d.until("the rename", d.screenContains("you are Alicia now"))
	d.keys("c")
	if b := bar(); !strings.Contains(b, "enter confirm") || strings.Contains(b, "quit") {
		t.Errorf("the join prompt's help bar: %q", b)
	}
	if strings.Contains(d.view(), "you are Alicia now") {
		t.Errorf("the rename's note stays over the join prompt:\n%s", d.view())
	}
}

// TestLobbyRulesTitleAt80: at 80 columns the lobby's rules name the page
// whole; the list of the games gives way (the page's title was cut to
// "Fantastic Factories: Buil…").
func TestLobbyRulesTitleAt80(t *testing.T) {
	d := newDriver(t, session.Config{Lobby: newTestLobby(), Player: alice, Width: 80, Height: 24})
	d.until("the lobby", d.screenContains("OPEN SEATS"))
	d.keys("R")
	for range 4 {
		if strings.Contains(d.view(), "Building") {
			break
		}
		d.keys("right")
	}
	head := strings.Split(d.view(), "\n")[2]
	if !strings.Contains(head, "page ") || strings.Contains(head, "…") {
		t.Errorf("the rules' title line: %q", head)
	}
}

// aliceAndBob is a game of two at its start: alice's screen and bob's
// connection.
func aliceAndBob(t *testing.T) (*driver, session.GameProbe, *lobby.Conn) {
	t.Helper()
	l := newTestLobby()
	code := createRoom(t, l, alice, lobby.CreateOptions{Seats: 2, Public: true, HasSeed: true, Seed: 53})
	d := newDriver(t, session.Config{Lobby: l, Player: alice, Width: 80, Height: 24, Start: session.Start{Mode: "join", Code: code}})
	b, err := l.Join(context.Background(), code, bob)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	d.inGame()
	g, _ := d.game()
	return d, g, b
}

// takeTurn plays c's market turn, once it comes, with a take: a refresh
// would leave the turn c's.
func takeTurn(t *testing.T, c *lobby.Conn) {
	t.Helper()
	for u := range c.Updates() {
		if len(u.View) == 0 {
			continue // the other seat is not taken yet
		}
		var v factories.View
		if err := json.Unmarshal(u.View, &v); err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(v.Legal, func(m factories.Move) bool { return m.Kind == factories.Take }); i >= 0 {
			raw, _ := json.Marshal(v.Legal[i])
			if err := c.Move(context.Background(), raw); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
}
