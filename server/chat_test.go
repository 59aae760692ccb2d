package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/redistest"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// legal is the legal moves of the update l's view of Fantastic Factories.
func legal(t *testing.T, l line) []factories.Move {
	t.Helper()
	var v factories.View
	if err := json.Unmarshal(l.View, &v); err != nil {
		t.Fatalf("view: %v", err)
	}
	return v.Legal
}

// Two players at real terminals talk over real SSH, a spectator speaks
// through play, and what each says reaches the others' screens. Escape
// sequences typed or pasted into the chat, or sent through play, arrive
// as harmless text: no title set, no screen cleared, no colour.
func TestChatBetweenTerminals(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	carol := dialKey(t, srv.addr, "carol", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 4", "").stdout)

	// Without the bell (and window title) on their move, so that any BEL
	// or OSC on these terminals could only have come from the chat.
	_, as := ptySession(t, alice, "join "+code+" --no-bell", 80, 24)
	as.waitFor(t, "WAITING ROOM")
	_, bs := ptySession(t, bob, "join "+code+" --no-bell", 120, 40)
	for _, s := range []*screen{as, bs} {
		s.waitFor(t, "MARKETPLACE")
	}
	bs.in.Write([]byte("t"))
	bs.waitFor(t, "nothing said yet")

	as.in.Write([]byte("thello bob\r"))
	bs.waitFor(t, "alice: hello bob")
	// A paste carrying an OSC (window title) and a CSI (clear screen),
	// as `printf '\e]0;pwned\a\e[2J'` would put on a clipboard.
	as.in.Write([]byte("\x1b[200~look \x1b]0;pwned\x07\x1b[2J here\x1b[201~\r"))
	// The screen's input keeps printable characters only; the rest of the
	// sequences shows as the text it is.
	bs.waitFor(t, "alice: look ]0;pwned[2J here")

	// Through play, nothing filters the bytes on the way in: the server's
	// cleaning is all there is.
	w := startPlay(t, carol, "play "+code+" --watch")
	<-w.lines
	w.send(t, map[string]string{"chat": "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cm0gLXJm\x07\x1b[31mred\x1b[0m\u202Etxet"})
	as.in.Write([]byte("t"))
	as.waitFor(t, "carol: redtxet")
	bs.waitFor(t, "carol: redtxet")
	for name, s := range map[string]*screen{"alice": as, "bob": bs} {
		raw := s.raw()
		for _, bad := range []string{"\x1b]0;pwned", "\x1b]52;", "\x1b[31mred", "\u202E", "\x07"} {
			if strings.Contains(raw, bad) {
				t.Errorf("%s's terminal received %q", name, bad)
			}
		}
	}
	// The spectator's stream carries the chat as lines of their own.
	got := map[string]store.ChatLine{}
	deadline := time.After(10 * time.Second)
	for len(got) < 3 {
		select {
		case l := <-w.lines:
			if l.Chat != nil {
				if l.View != nil || l.Room.Code != "" {
					t.Fatalf("a chat line carries an update: %s", l.raw)
				}
				got[l.Chat.Text] = *l.Chat
			}
		case <-deadline:
			t.Fatalf("the spectator's stream showed %v", got)
		}
	}
	if c := got["redtxet"]; c.Name != "carol" || c.Seat != -1 || c.Channel != store.ChatSpectators {
		t.Errorf("carol's line on play: %+v", c)
	}
	if c := got["hello bob"]; c.Name != "alice" || c.Seat != 0 || c.Channel != store.ChatPlayers {
		t.Errorf("alice's line on play: %+v", c)
	}
}

// play carries chat both ways: {"chat":"…"} in, a chat line out to every
// stream in the room, apart from the updates; a refused message is an
// error line about chat and the session goes on; moves still play and are
// answered as before; a stream opened later starts with what was said;
// past the rate limit the refusal says so.
func TestChatOverPlay(t *testing.T) {
	srv := startServerLimited(t, lobby.Limits{ChatPerMinute: 2})
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 8", "").stdout)
	a := startPlay(t, alice, "play "+code)
	b := startPlay(t, bob, "play "+code)
	views := map[*stream]line{} // each stream's newest update with a view
	next := func(s *stream, what string, ok func(line) bool) line {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case l, open := <-s.lines:
				if !open {
					t.Fatalf("the stream ended waiting for %s", what)
				}
				if len(l.View) > 0 {
					views[s] = l
				}
				if ok(l) {
					return l
				}
			case <-deadline:
				t.Fatalf("no %s within 10s", what)
			}
		}
	}
	isChat := func(text string) func(line) bool {
		return func(l line) bool { return l.Chat != nil && l.Chat.Text == text }
	}
	started := func(l line) bool { return len(l.View) > 0 }
	next(a, "the game", started)
	next(b, "the game", started)

	a.send(t, map[string]string{"chat": "/me shuffles"})
	for _, s := range []*stream{a, b} {
		l := next(s, "alice's action", isChat("shuffles"))
		if !l.Chat.Me || l.Chat.Name != "alice" || l.Chat.ID == "" || l.Chat.At.IsZero() {
			t.Errorf("the action as play shows it: %+v", l.Chat)
		}
	}
	b.send(t, map[string]string{"chat": strings.Repeat("x", 301)})
	l := next(b, "a refusal", func(l line) bool { return l.Error != "" })
	if l.About != "chat" || !strings.Contains(l.Error, "at most 300 characters") {
		t.Errorf("an overlong message: %s", l.raw)
	}
	// A move still plays and is answered with ok.
	mover := a
	if len(legal(t, views[a])) == 0 {
		mover = b
	}
	mover.send(t, legal(t, views[mover])[0])
	if l := next(mover, "the move's answer", func(l line) bool { return l.OK || l.Error != "" }); !l.OK {
		t.Fatalf("a move after chat: %s", l.raw)
	}
	// A burst of 5, then the limit of 2 a minute.
	for i := range 5 {
		b.send(t, map[string]string{"chat": "ok " + string(rune('a'+i))})
		next(a, "bob's line", isChat("ok "+string(rune('a'+i))))
	}
	b.send(t, map[string]string{"chat": "too many"})
	l = next(b, "the rate refusal", func(l line) bool { return l.Error != "" })
	if l.About != "chat" || l.Error != "slow down: at most 2 messages a minute; that one was not sent" {
		t.Errorf("past the rate: %s", l.raw)
	}

	// A stream opened now starts with the chat so far, after its update.
	c := startPlay(t, bob, "play "+code+" --watch")
	first := <-c.lines
	if first.Room.Code != code {
		t.Fatalf("the first line is not the update: %s", first.raw)
	}
	var said []string
	for range 6 {
		l := <-c.lines
		if l.Chat == nil {
			t.Fatalf("after the first update, %s", l.raw)
		}
		said = append(said, l.Chat.Text)
	}
	if strings.Join(said, "|") != "shuffles|ok a|ok b|ok c|ok d|ok e" {
		t.Errorf("the chat so far: %q", said)
	}
}

// The lobby's chat over two instances sharing a real Redis: what alice
// says on A's lobby screen shows on bob's on B, and back.
func TestLobbyChatAcrossInstancesOverSSH(t *testing.T) {
	r := redistest.Start(t)
	a, b := startRedisInstance(t, r.URL), startRedisInstance(t, r.URL)
	alice := dialKey(t, a.addr, "alice", newKey(t))
	bob := dialKey(t, b.addr, "bob", newKey(t))
	_, as := ptySession(t, alice, "", 80, 24)
	_, bs := ptySession(t, bob, "", 120, 40)
	for _, s := range []*screen{as, bs} {
		s.waitFor(t, "OPEN SEATS")
		s.in.Write([]byte("t"))
		s.waitFor(t, "nothing said yet")
	}
	as.in.Write([]byte("anyone for furnace? \r"))
	bs.waitFor(t, "alice: anyone for furnace?")
	bs.in.Write([]byte("me, in a minute\r"))
	as.waitFor(t, "bob: me, in a minute")
}
