// Package cmd holds the exec commands: what `ssh HOST COMMAND` does, one
// file a command (the four that open the game screen share one). A
// command sees a narrow Call (the player, their input and output, the
// lobby) and asks the SSH server it runs in only through Host and
// Session; the server knows the command set only through Set.Run.
package cmd

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// Set is one server's exec commands and what they run against.
type Set struct {
	Lobby *lobby.Lobby
	Host  Host
	// Log records what operators do.
	Log *slog.Logger
	// MaxLine bounds a line of play's input; 0 allows 16 MiB.
	MaxLine int
	// Screens draw each game, by game name: for replay --cast.
	Screens map[string]kit.Game
}

// Host is what the commands ask of the SSH server they run in.
type Host interface {
	// SSHCommand is the ssh command line that runs args on this server.
	SSHCommand(tty bool, args ...string) string
	// Operator is the name the operators file gives p, or "" for a
	// player who is no operator.
	Operator(p lobby.Player) string
	// Refuse counts and logs a refusal, once per burst of its kind.
	Refuse(reason string, attrs ...any)
	// Ask puts an operator's request (Kind: one of the Ask constants) to
	// every instance, and gathers the answers: this instance's at least.
	Ask(ctx context.Context, req store.OperatorRequest) Answers
	// BansChanged makes the next session read the bans again.
	BansChanged()
}

// What operators ask of every instance: with a store shared between
// instances (Redis) the request goes to all of them and each answers for
// its own sessions; otherwise this instance answers alone.
const (
	AskSessions = "sessions" // list the sessions
	AskKick     = "kick"     // Args: session ID
	AskAnnounce = "announce" // Args: the text
	AskBanned   = "banned"   // Args: ban target, the banning session's ID
)

// Answers are what the instances answered an operator.
type Answers struct {
	List []store.OperatorAnswer
	// Note says how far the answers reach, for the operator; "" when only
	// this instance was asked.
	Note string
}

// Session is what a command asks of the SSH session it runs in.
type Session interface {
	// Started tells the server the session's kind (terminal, play or
	// command), once its command is known.
	Started(kind string)
	// Input is the client's input, read until ctx ends.
	Input(ctx context.Context) io.Reader
	// Ended says why the server ended the session, if it did: in the
	// player's language, English for play's JSON.
	Ended() (note string, ok bool)
	// Screen runs the game screen on the session's terminal from start,
	// until the player leaves it.
	Screen(start session.Start, theme string, noBell bool) error
	// Lines runs the line mode (session/line) from start, on the
	// session's terminal or its plain input and output, until the player
	// leaves it.
	Lines(start session.Start) error
	// EndConn ends the session's connection, telling its other sessions
	// note: the lobby refused the player for good.
	EndConn(note string)
}

// Call is one command line run for a session.
type Call struct {
	// Ctx ends with the session.
	Ctx    context.Context
	Player lobby.Player
	// Line is the command line as the client sent it, in words.
	Line []string
	Out  io.Writer
	// Err takes what is said to people: errors and hints.
	Err io.Writer
	// Env is the environment the client sent (ssh -o SendEnv).
	Env []string
	// Lang is the language the player reads: their profile's choice,
	// else their environment's (lang.Choose); "" is English.
	Lang lang.Tag
	// Terminal reports whether the session has one (ssh -t); Width is
	// its width, to which what Err says is wrapped.
	Terminal bool
	Width    int
	// JSON is the common --json of the commands that print facts: they
	// print them as JSON for scripts, with the same field names in each.
	JSON bool
	// Dumb reports a terminal that cannot address its cursor (TERM=dumb,
	// or none named): its terminal commands open the line mode.
	Dumb bool
	// ID names the session to operators (admin sessions).
	ID string
	// Remote is the client's address, for the log.
	Remote  string
	Session Session

	// args are the command's arguments: the line after its name.
	args []string
}

// T words message id for the player, in their language.
func (c *Call) T(id string, args ...any) string { return lang.For(c.Lang).T(id, args...) }

// N words message id in the plural form n takes, in the player's language.
func (c *Call) N(id string, n int, args ...any) string { return lang.For(c.Lang).N(id, n, args...) }

// decimal writes x as the player's language writes numbers.
func (c *Call) decimal(x float64, places int) string { return lang.For(c.Lang).Decimal(x, places) }

// duration writes d as the player's language abbreviates time.
func (c *Call) duration(d time.Duration) string { return lang.For(c.Lang).Duration(d) }

// GuestNote is what guests are told as they connect, before any
// language is known, so in English; the commands word it in the guest's
// language (cmd.guest_note).
var GuestNote = lang.For(lang.English).T("cmd.guest_note")
