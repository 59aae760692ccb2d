package server

import (
	"context"
	"fmt"
	"io"

	"github.com/charmbracelet/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/server/cmd"
	"github.com/smokestack/smokestack/session"
)

// maxCommand bounds an exec command line; real ones are short.
const maxCommand = 1024

// call is a session running its command line, as the server keeps it:
// what the commands (server/cmd) may ask of the session.
type call struct {
	s      *Server
	ctx    context.Context
	sess   ssh.Session
	player lobby.Player
	live   *liveSession
	out    io.Writer
	kind   string // once the command is known
}

// run runs the session's command and returns its exit status. A terminal
// session's program runs inside it for as long as the player stays, so
// its work before and after is done out of line (see runTUI).
func (s *Server) run(sess ssh.Session) int {
	c := s.newCall(sess)
	defer c.finish()
	if len(sess.RawCommand()) > maxCommand {
		fmt.Fprintln(sess.Stderr(), "smokestack: "+c.live.printer().N("server.command_too_long", len(sess.RawCommand())))
		return 1
	}
	return s.commands().Run(c.command())
}

// commands are the exec commands (server/cmd), on the server's lobby, log
// and limits as they are now.
func (s *Server) commands() *cmd.Set {
	return &cmd.Set{Lobby: s.cfg.Lobby, Host: host{s}, Log: s.log, MaxLine: s.cfg.Limits.MaxLine, Screens: s.cfg.Screens}
}

func (s *Server) newCall(sess ssh.Session) *call {
	live := s.liveOf(sess)
	return &call{s: s, ctx: live.ctx, sess: sess, player: playerFrom(sess.Context()), live: live, out: sess}
}

// command is c as the commands see it.
func (c *call) command() *cmd.Call {
	pty, _, isPty := c.sess.Pty()
	errOut := c.sess.Stderr()
	if isPty {
		// A terminal shows both streams on one screen, in the order the
		// client happens to read them: errors go on the output stream, so
		// a line said after a game screen cannot overtake its restored
		// terminal.
		errOut = c.sess
	}
	return &cmd.Call{Ctx: c.ctx, Player: c.player, Line: c.sess.Command(), Out: c.sess, Err: errOut,
		Env: c.sess.Environ(), Lang: c.live.printer().Tag(), Terminal: isPty, Width: pty.Window.Width, Dumb: isPty && dumbTerm(pty.Term), ID: c.live.id, Remote: c.sess.RemoteAddr().String(), Session: c}
}

// Started counts the session in the sessions metric, by its kind.
func (c *call) Started(kind string) {
	c.kind = kind
	c.live.setKind(kind)
	c.s.metrics.sessions.WithLabelValues(kind).Inc()
}

// finish takes the session out of the sessions metric.
func (c *call) finish() {
	if c.kind != "" {
		c.s.metrics.sessions.WithLabelValues(c.kind).Dec()
	}
}

// Input is the session's input, paced and noted as activity (limits.go).
func (c *call) Input(ctx context.Context) io.Reader { return c.s.input(ctx, c) }

// Ended says why the server ended the session, if it did: in the
// player's language, but in English to play, whose JSON lines stay
// language-neutral.
func (c *call) Ended() (string, bool) {
	note, ok := noteFor(c.ctx)
	if c.kind == "play" {
		return note.Error(), ok
	}
	return note.In(c.live.printer()), ok
}

// Screen runs the game screen on the session's terminal (tui.go).
func (c *call) Screen(start session.Start, theme string, noBell bool) error {
	return c.s.runTUI(c, terminalStart{start: start, theme: theme, noBell: noBell})
}

// EndConn ends the session's connection (conn.go).
func (c *call) EndConn(note string) { c.s.endConn(c.sess, note) }

// terminalStart is what a terminal command opens, and how.
type terminalStart struct {
	start  session.Start
	theme  string
	noBell bool
}

// host is the server as the commands see it.
type host struct{ s *Server }

// SSHCommand is the ssh command line that runs args here (publicaddr.go).
func (h host) SSHCommand(tty bool, args ...string) string { return h.s.sshCommand(tty, args...) }

// Operator is p's name in the operators file, or "".
func (h host) Operator(p lobby.Player) string {
	if !h.s.isOperator(p) {
		return ""
	}
	return h.s.cfg.Operators[p.Key]
}

// Refuse counts and logs a refusal.
func (h host) Refuse(reason string, attrs ...any) { h.s.refuse(reason, attrs...) }

// Ask puts an operator's request to every instance (operators.go).
func (h host) Ask(ctx context.Context, req store.OperatorRequest) cmd.Answers {
	return h.s.askAll(ctx, req)
}

// BansChanged makes the next session read the bans again.
func (h host) BansChanged() { h.s.bans.forget() }
