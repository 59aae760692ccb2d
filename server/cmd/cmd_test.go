package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/smokestack/smokestack/internal/tally"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/lobby/store/mem"
	"github.com/smokestack/smokestack/session"
)

// The commands run here straight against a real lobby, with no SSH in
// between: what they need of the server is the few calls of Host and
// Session, answered as a server on localhost would. Over real SSH they are
// tested in package server.

var alice = lobby.Player{ID: "SHA256:alice", Key: "SHA256:alice", Name: "alice"}

// testHost is a server on localhost whose one operator is alice.
type testHost struct{ refused []string }

func (h *testHost) SSHCommand(tty bool, args ...string) string {
	return session.SSHCommand("localhost:2222", tty, args...)
}

func (h *testHost) Operator(p lobby.Player) string {
	if p.Key == alice.Key {
		return "alice's laptop"
	}
	return ""
}

func (h *testHost) Refuse(reason string, _ ...any) { h.refused = append(h.refused, reason) }

func (h *testHost) Ask(context.Context, store.OperatorRequest) Answers { return Answers{} }

func (h *testHost) BansChanged() {}

// testSession is a script's session: input from in, no terminal.
type testSession struct {
	in   io.Reader
	kind string
}

func (s *testSession) Started(kind string)             { s.kind = kind }
func (s *testSession) Input(context.Context) io.Reader { return s.in }
func (s *testSession) Ended() (string, bool)           { return "", false }
func (s *testSession) EndConn(string)                  {}
func (s *testSession) Screen(session.Start, string, bool) error {
	return errors.New("no terminal here")
}

func (s *testSession) Lines(session.Start) error { return errors.New("no line mode here") }

// result is what a command line printed, and its exit status.
type result struct {
	out, err string
	status   int
	kind     string
}

func newSet() *Set {
	l := lobby.New(lobby.Config{Store: mem.New(), Games: []lobby.Game{{Rules: tally.Rules}}})
	return &Set{Lobby: l, Host: &testHost{}, Log: slog.New(slog.DiscardHandler)}
}

func (s *Set) runLine(p lobby.Player, line, input string) result {
	return s.runCall(p, &Call{}, line, input)
}

// runCall runs line as c (its terminal, its width) for p.
func (s *Set) runCall(p lobby.Player, c *Call, line, input string) result {
	var out, errOut bytes.Buffer
	sess := &testSession{in: strings.NewReader(input)}
	c.Ctx, c.Player, c.Line, c.Out, c.Err, c.Session = context.Background(), p, strings.Fields(line), &out, &errOut, sess
	status := s.Run(c)
	return result{out: out.String(), err: errOut.String(), status: status, kind: sess.kind}
}

// The operators' commands exist for operators only: help lists admin to
// them alone, and to anyone else it is an unknown command.
func TestAdminIsForOperators(t *testing.T) {
	s := newSet()
	bob := lobby.Player{ID: "SHA256:bob", Key: "SHA256:bob", Name: "bob"}
	if r := s.runLine(bob, "help", ""); r.status != 0 || strings.Contains(r.out, "admin") || !strings.Contains(r.out, "play     play (or watch)") {
		t.Errorf("help for bob: status %d:\n%s", r.status, r.out)
	}
	if r := s.runLine(bob, "admin sessions", ""); r.status != 1 || !strings.Contains(r.err, `unknown command "admin"`) {
		t.Errorf("admin for bob: status %d, %q", r.status, r.err)
	}
	if r := s.runLine(alice, "help", ""); !strings.Contains(r.out, "admin    operators: see and steer this server") {
		t.Errorf("help for the operator lacks admin:\n%s", r.out)
	}
	if r := s.runLine(alice, "admin frobnicate", ""); r.status != 1 || !strings.Contains(r.err, "usage: admin sessions|rooms") {
		t.Errorf("admin frobnicate: status %d, %q", r.status, r.err)
	}
}

// A terminal command without a terminal says how to run it, and a script
// with no command gets the help.
func TestScreensNeedATerminal(t *testing.T) {
	s := newSet()
	code := strings.TrimSpace(s.runLine(alice, "new", "").out)
	r := s.runLine(alice, "join "+code, "")
	if r.status != 1 || r.kind != "terminal" || !strings.Contains(r.err, "ssh -t -p 2222 localhost join "+code) {
		t.Errorf("join without a terminal: status %d, kind %q, %q", r.status, r.kind, r.err)
	}
	if r := s.runLine(alice, "", ""); r.status != 0 || r.kind != "command" || !strings.HasPrefix(r.out, "smokestack: Tally over SSH.") {
		t.Errorf("no command: status %d, kind %q:\n%s", r.status, r.kind, r.out)
	}
}

// play answers every line of its input: a move with ok, what is no move
// with an error that says what a move looks like; its input's end ends it.
func TestPlayAnswersEveryLine(t *testing.T) {
	s := newSet()
	code := strings.TrimSpace(s.runLine(alice, "new --players 1", "").out)
	r := s.runLine(alice, "play "+code, "nonsense\n[1]\n{\"kind\":\"take\"}\n")
	if r.status != 0 || r.kind != "play" {
		t.Fatalf("play: status %d, kind %q, stderr %q", r.status, r.kind, r.err)
	}
	var answers []string
	for line := range strings.Lines(r.out) {
		var a struct {
			Error string `json:"error"`
			OK    bool   `json:"ok"`
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("play printed %q: %v", line, err)
		}
		switch {
		case a.Error != "":
			answers = append(answers, a.Error)
		case a.OK:
			answers = append(answers, "ok")
		}
	}
	want := []string{errNotJSON.Error(), errNotObject.Error(), "ok"}
	if strings.Join(answers, "\n") != strings.Join(want, "\n") {
		t.Errorf("play answered\n%s\nwant\n%s", strings.Join(answers, "\n"), strings.Join(want, "\n"))
	}
}
