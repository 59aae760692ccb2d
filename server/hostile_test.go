package server

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/lobby/chat"
)

// hostileTexts are what a person could put in any text the server shows
// others: each would act on a terminal drawn raw.
var hostileTexts = []struct{ name, text string }{
	{"C0 controls", "\x01\x07\x08\x7f"},
	{"CSI", "\x1b[1337;7777H"},
	{"C1 CSI", "\u009b1337;7777H"},
	{"OSC 52 clipboard write", "\x1b]52;c;aG9zdGlsZQ==\x07"},
	{"C1 OSC", "\u009d0;1337;7777\u009c"},
	{"DCS", "\x1bP1337;7777q\x1b\\"},
	{"bidi override", "\u202e"},
	{"bidi isolates", "\u2066\u2067\u2068\u2069"},
	{"zero-width", "\u200b\u2060\ufeff"},
	{"invalid UTF-8", "\xff"},
}

// hostileTraces are what of hostileTexts must never reach a terminal.
var hostileTraces = []string{"1337;7777", "\x01", "\x07", "\x08", "\x7f", "\u009b", "\u009d", "\u009c", "]52;",
	"\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u2060", "\ufeff", "\xff"}

// noHostileTrace fails t if out, what a terminal received, holds any part
// of hostileTexts.
func noHostileTrace(t *testing.T, where, out string) {
	t.Helper()
	for _, bad := range hostileTraces {
		if strings.Contains(out, bad) {
			t.Errorf("%s received %q", where, bad)
		}
	}
}

// Every text from outside the code that reaches a terminal, from each way
// in, is cleaned of the same hostile set: an operator's announcement, a
// chat line sent through play, an SSH login offered as a name, a name
// chosen, and the commands that print names.
func TestHostileTextReachesNoTerminal(t *testing.T) {
	op := newKey(t)
	srv := startServer(t, withOperators(io.Discard, op))
	admin := dialKey(t, srv.addr, "ops", op)
	alice := dialKey(t, srv.addr, "alice", newKey(t))
	bob := dialKey(t, srv.addr, "bob", newKey(t))
	code := strings.TrimSpace(run(t, alice, "new --players 2 --seed 4", "").stdout)
	_, scr := ptySession(t, alice, "join "+code+" --no-bell", 100, 30)
	scr.waitFor(t, "WAITING ROOM")
	b := startPlay(t, bob, "play "+code)
	<-b.lines
	scr.waitFor(t, "MARKETPLACE")
	scr.in.Write([]byte("t"))
	scr.waitFor(t, "nothing said yet")

	for i, h := range hostileTexts {
		t.Run(h.name, func(t *testing.T) {
			text := fmt.Sprintf("hostile-%d:%s.", i, h.text)
			shown := chat.CleanText(text)
			if shown != fmt.Sprintf("hostile-%d:.", i) && h.name != "invalid UTF-8" {
				t.Fatalf("the set's text %q is cleaned to %q, not to its marker", text, shown)
			}

			if r := run(t, admin, "admin announce '"+text+"'", ""); !strings.Contains(r.stdout, "shown on 1 terminal") {
				t.Fatalf("announce: %+v", r)
			}
			// Wait for the marker, then look for the whole: a sequence
			// drawn raw could break the text up.
			marker := fmt.Sprintf("hostile-%d:", i)
			scr.waitFor(t, "announcement: "+marker)
			b.send(t, map[string]string{"chat": text})
			scr.waitFor(t, "bob: "+marker)
			for _, want := range []string{"announcement: " + shown, "bob: " + shown} {
				if !strings.Contains(scr.text(), want) {
					t.Errorf("the terminal does not show %q", want)
				}
			}

			// A login offered as the name of a new key.
			c := dialKey(t, srv.addr, text, newKey(t))
			for _, cmd := range []string{"whoami", "profile", "name '" + text + "'", "new --players 2", "rooms", "top"} {
				r := run(t, c, cmd, "")
				noHostileTrace(t, cmd+" by a player who logged in as "+h.name, r.stdout+r.stderr)
			}
		})
	}
	noHostileTrace(t, "the terminal", scr.raw())
}
