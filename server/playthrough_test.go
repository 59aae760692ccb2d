package server

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// The play-through is the suite of flows a new player goes through, each
// played by scripted people at real terminals over real SSH: a player's
// screen is a terminal emulator of the size they asked for, so every step
// asserts what that person reads, not the server's state. Run it alone
// with `go test -run PlayThrough ./server/`; add a flow as a
// TestPlayThrough... function using the player below.

// player is one person: an SSH key and, while connected, a terminal.
type player struct {
	t    *testing.T
	name string
	key  gossh.Signer
	addr string
	w, h int
	// env is what the player's ssh sends (SetEnv), such as LANG.
	env  map[string]string
	term *vt.SafeEmulator
	in   io.WriteCloser
	sess *gossh.Session
	// out is every byte the server wrote to the terminal, for what a
	// screen does not show (the modes it asks of the terminal).
	out *lockedBuffer
}

// sitDown brings a new person with a fresh key to the server at a
// terminal of w x h, running cmd (the lobby when cmd is empty).
func sitDown(t *testing.T, addr, name string, w, h int, cmd string) *player {
	t.Helper()
	p := &player{t: t, name: name, key: newKey(t), addr: addr, w: w, h: h}
	p.connect(cmd)
	return p
}

// guestSitsDown brings a person without a key, a guest, to the server
// at a terminal of w x h, running cmd: each of their connections is a
// new guest, who comes back to a seat with its seat word.
func guestSitsDown(t *testing.T, addr, name string, w, h int, cmd string) *player {
	t.Helper()
	p := &player{t: t, name: name, addr: addr, w: w, h: h}
	p.connect(cmd)
	return p
}

// connect opens a new connection with the player's key (as a guest
// without one), as `ssh HOST cmd` would, on a fresh terminal.
func (p *player) connect(cmd string) {
	p.t.Helper()
	auth := guestAuth
	if p.key != nil {
		auth = gossh.PublicKeys(p.key)
	}
	c := dial(p.t, p.addr, p.name, auth)
	s, err := c.NewSession()
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { s.Close() })
	for k, v := range p.env {
		if err := s.Setenv(k, v); err != nil {
			p.t.Fatal(err)
		}
	}
	if err := s.RequestPty("xterm-256color", p.h, p.w, gossh.TerminalModes{}); err != nil {
		p.t.Fatal(err)
	}
	term := vt.NewSafeEmulator(p.w, p.h)
	// Closing the answers' pipe ends the copy below; Emulator.Close would
	// race with the Read it is blocked in.
	p.t.Cleanup(func() { term.InputPipe().(io.Closer).Close() })
	out := &lockedBuffer{}
	s.Stdout, s.Stderr = io.MultiWriter(term, out), term
	in, err := s.StdinPipe()
	if err != nil {
		p.t.Fatal(err)
	}
	// A real terminal answers the queries a program sends it.
	go io.Copy(in, term) //nolint:errcheck // ends with the session
	if cmd == "" {
		err = s.Shell()
	} else {
		err = s.Start(cmd)
	}
	if err != nil {
		p.t.Fatal(err)
	}
	p.term, p.in, p.sess, p.out = term, in, s, out
}

// resize changes the player's terminal to w x h, as dragging its window
// would.
func (p *player) resize(w, h int) {
	p.t.Helper()
	p.term.Resize(w, h)
	p.w, p.h = w, h
	if err := p.sess.WindowChange(h, w); err != nil {
		p.t.Fatal(err)
	}
}

// leave closes the player's connection, as closing the terminal would.
func (p *player) leave() {
	p.sess.Close()
}

// keys are the names press knows; anything else is typed as it is.
var keys = map[string]string{
	"enter": "\r", "esc": "\x1b", "tab": "\t", "backspace": "\x7f", "space": " ",
	"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
	"home": "\x1b[H", "end": "\x1b[F", "pgup": "\x1b[5~", "pgdown": "\x1b[6~",
}

// press types each key in turn.
func (p *player) press(ks ...string) {
	p.t.Helper()
	for _, k := range ks {
		seq, ok := keys[k]
		if !ok {
			seq = k
		}
		if _, err := io.WriteString(p.in, seq); err != nil {
			p.t.Fatalf("%s presses %q: %v", p.name, k, err)
		}
	}
}

// screen is what the player's terminal shows now, line by line.
func (p *player) screen() string {
	return ansi.Strip(p.term.Render())
}

// sees waits until the player's screen shows every one of want at once.
func (p *player) sees(want ...string) {
	p.t.Helper()
	p.waitScreen(fmt.Sprintf("%q", want), func(s string) bool {
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
}

// seesNo waits until the player's screen shows none of gone: a screen
// moves on by redrawing, so what must go away is waited for too.
func (p *player) seesNo(gone ...string) {
	p.t.Helper()
	p.waitScreen(fmt.Sprintf("none of %q", gone), func(s string) bool {
		for _, g := range gone {
			if strings.Contains(s, g) {
				return false
			}
		}
		return true
	})
}

// waitScreen polls the screen until ok holds, and fails the test with
// the screen as the player sees it when it never does.
func (p *player) waitScreen(what string, ok func(string) bool) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok(p.screen()) {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s's %dx%d screen never showed %s; it shows:\n%s", p.name, p.w, p.h, what, p.screen())
		}
		time.Sleep(20 * time.Millisecond) // a terminal has no change hook: poll
	}
}

// sitTwo has a host make a room with new's args and seats alice, then
// bob, at 80x24 terminals: alice waits in the waiting room until bob's
// seat starts the game.
func sitTwo(t *testing.T, addr, args string) (alice, bob *player, code string) {
	t.Helper()
	code = newRoom(t, dialKey(t, addr, "host", newKey(t)), args)
	alice = sitDown(t, addr, "alice", 80, 24, "join "+code)
	alice.sees("WAITING ROOM")
	bob = sitDown(t, addr, "bob", 80, 24, "join "+code)
	return alice, bob, code
}

// openForm opens the new-room form from the lobby and turns its game
// field to title, the registry's games being offered in their order.
func (p *player) openForm(title string) {
	p.t.Helper()
	p.sees("OPEN SEATS", "n new room")
	p.press("n")
	p.sees("NEW ROOM", "▸ game")
	for i := 0; !strings.Contains(p.screen(), "◂ "+title+" ▸"); i++ {
		if i == 10 {
			p.t.Fatalf("the new-room form offers no game %q:\n%s", title, p.screen())
		}
		shown := p.screen()
		p.press("right")
		p.waitScreen("the next game", func(s string) bool { return s != shown })
	}
}

// TestPlayThroughFirstGame is a new player's first minutes: the lobby at
// 80x24, the new-room form, a friend joining from the lobby, and both at
// the table of a Furnace auction.
func TestPlayThroughFirstGame(t *testing.T) {
	srv := startServer(t)
	alice := sitDown(t, srv.addr, "alice", 80, 24, "")
	alice.openForm("Furnace")
	alice.press("enter")
	alice.sees("WAITING ROOM", "1 of 2 seats taken")
	bob := sitDown(t, srv.addr, "bob", 80, 24, "")
	bob.sees("OPEN SEATS (1)", "furnace 2p  1/2", "alice")
	bob.press("enter")
	bob.sees("round 1 of 4 · auction", "MARKET", "bob (you)")
	alice.sees("round 1 of 4 · auction", "MARKET", "bob")
}
