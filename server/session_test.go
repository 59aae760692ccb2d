package server

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/waittest"
	"github.com/smokestack/smokestack/lobby"
)

// ptySession opens a terminal session of the given size running cmd (the
// lobby when cmd is empty) and collects its screen.
func ptySession(t *testing.T, c *gossh.Client, cmd string, w, h int) (*gossh.Session, *screen) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	scr := &screen{}
	s.Stdout, s.Stderr = scr, scr
	if scr.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if cmd == "" {
		err = s.Shell()
	} else {
		err = s.Start(cmd)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s, scr
}

func TestTerminalOpensLobbyAndRoom(t *testing.T) {
	srv := startServer(t)
	c := dialKey(t, srv.addr, "alice", newKey(t))

	sess, scr := ptySession(t, c, "", 100, 30)
	scr.waitFor(t, "smokestack")
	if err := sess.WindowChange(24, 80); err != nil {
		t.Fatal(err)
	}
	if err := sess.WindowChange(5, 20); err != nil { // tiny: the session asks for more room
		t.Fatal(err)
	}
	sess.Close()

	code := strings.TrimSpace(run(t, c, "new --players 1 --difficulty easy", "").stdout)
	sess, scr = ptySession(t, c, "join "+code, 120, 40)
	scr.waitFor(t, code)
	waitUntil(t, "alice to hold the solo seat", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && info.Seats[0].Connected && info.Seats[0].Name == "alice"
	})
	sess.Close()
	// The screen's room connection ends with the session.
	waitUntil(t, "the seat to be released", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && !info.Seats[0].Connected
	})

	// A missing room is refused before any screen opens.
	sess, scr = ptySession(t, c, "watch NOSUCH", 80, 24)
	err := sess.Wait()
	if exit, ok := err.(*gossh.ExitError); !ok || exit.ExitStatus() != 1 || !strings.Contains(scr.text(), "no room") {
		t.Errorf("watch NOSUCH: %v, screen %q", err, scr.text())
	}
}

// A client that drops mid-game leaves the server serving, and the same key
// lands back in its seat.
func TestClientDropMidSession(t *testing.T) {
	srv := startServer(t)
	aliceKey := newKey(t)
	alice := dialKey(t, srv.addr, "alice", aliceKey)
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 3", "").stdout)

	a := startPlay(t, alice, "play "+code)
	seat := (<-a.lines).Seat
	b := startPlay(t, bob, "play "+code)
	for l := range b.lines {
		if l.Room.Started && l.Room.Seats[seat].Connected {
			break
		}
	}
	// A terminal session too, so the drop cuts a running TUI.
	_, scr := ptySession(t, alice, "watch "+code, 80, 24)
	scr.waitFor(t, code)
	alice.Close() // the network goes away under every session at once
	for range a.lines {
	}
	waitUntil(t, "alice's seat to show her away", func() bool {
		info, err := srv.lobby.Info(t.Context(), code, lobby.Player{})
		return err == nil && !info.Seats[seat].Connected && !info.Seats[seat].AwaySince.IsZero() && info.Spectators == 0
	})

	again := startPlay(t, dialKey(t, srv.addr, "alice", aliceKey), "play "+code)
	l := <-again.lines
	if l.Error != "" || l.Seat != seat || !l.Room.Seats[seat].Connected {
		t.Fatalf("alice back: %+v", l)
	}
	if r := run(t, bob, "rooms", ""); r.status != 0 {
		t.Errorf("rooms after a drop: %+v", r)
	}
}

// A panic in one session is logged and reported to that player; the
// server goes on serving others.
func TestPanicStaysInItsSession(t *testing.T) {
	srv := startServer(t, func(s *Server) {
		s.srv.Handler = chain(s.recoverPanics, s.checkIdentity, s.admitSession, func(next ssh.Handler) ssh.Handler {
			return func(sess ssh.Session) {
				if sess.RawCommand() == "boom" {
					var m map[string]int
					m["boom"]++ // a nil map write: a real bug's panic
				}
				s.route(next)(sess)
			}
		})
	})
	c := dialKey(t, srv.addr, "alice", newKey(t))
	r := run(t, c, "boom", "")
	if r.status != 1 || !strings.Contains(r.stderr, "internal error") {
		t.Errorf("panicking session: %+v", r)
	}
	if r := run(t, c, "whoami", ""); r.status != 0 {
		t.Errorf("after a panic: %+v", r)
	}
}

// Shutdown tells every open session the server is restarting: terminals
// on every screen (lobby, a seat, watching, mid-redraw) get their screen
// back and the note below it, play streams an error line.
func TestShutdownTellsSessions(t *testing.T) {
	srv := startServer(t)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2", "").stdout)
	st := startPlay(t, bob, "play "+code)
	<-st.lines
	var screens []*screen
	for _, open := range []struct {
		c    *gossh.Client
		cmd  string
		want string
	}{{alice, "", "smokestack"}, {alice, "join " + code, code}, {bob, "watch " + code, code}} {
		sess, scr := ptySession(t, open.c, open.cmd, 100, 30)
		scr.waitFor(t, open.want)
		screens = append(screens, scr)
		if open.cmd == "" {
			// Keep this one redrawing as the shutdown comes.
			go func() {
				for range 200 {
					if sess.WindowChange(24+len(screens)%7, 80) != nil {
						return
					}
				}
			}()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go srv.Shutdown(ctx)
	for i, scr := range screens {
		scr.waitFor(t, restartNote.Error())
		raw := scr.raw()
		leave := strings.LastIndex(raw, "\x1b[?1049l") // the alt screen left, the terminal restored
		if leave < 0 || leave > strings.LastIndex(raw, restartNote.Error()) {
			t.Errorf("screen %d: the note is not below a restored terminal: %q", i, raw[max(0, len(raw)-300):])
		}
	}
	var last line
	for l := range st.lines {
		last = l
	}
	if !strings.Contains(last.Error, "restarting") {
		t.Errorf("last line before shutdown: %+v", last)
	}
	if _, err := net.DialTimeout("tcp", srv.addr, time.Second); err == nil {
		t.Error("still accepting connections after Shutdown")
	}
}

// waitUntil waits for a state nothing announces.
var waitUntil = waittest.Until
