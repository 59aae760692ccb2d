package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/lobby"
)

// command is one thing `ssh host COMMAND` can do.
type command struct {
	name  string
	args  string // usage after the name
	about string
	// terminal marks the commands that open the game screen, and so
	// need ssh -t (terminal.go).
	terminal bool
	// operator marks commands only operators have (admin.go).
	operator bool
	run      func(s *Set, c *Call) error
}

// commands lists the exec commands in the order help shows them.
var commands = []command{
	{name: "help", args: "[COMMAND]", about: "show this help, or one command's"}, // run set in init: help lists commands
	{name: "rooms", args: "[--json]", about: "list open public rooms", run: (*Set).rooms},
	{name: "new", args: "[--game G] [--players N] [--private] [--seed S] [--bots B,B] [--grace 2m] [--clock 90s|off] [--sit] [game options]",
		about: "create a room you host and print its code on its own line; --sit seats you in it (help new: games, options, bots)", run: (*Set).newRoom},
	{name: "play", args: "CODE [WORD] [--watch]", about: "play (or watch) a room as JSON lines: views out, moves in (see docs/protocol.md)", run: (*Set).play},
	{name: "join", args: "CODE [WORD] [--theme T] [--no-bell]", about: "open the game screen in your seat of that room (a guest coming back adds their seat word)", terminal: true},
	{name: "watch", args: "CODE [--theme T] [--no-bell]", about: "watch a room live", terminal: true},
	{name: "replay", args: "CODE [--theme T] [--no-bell]", about: "step through a finished game", terminal: true},
	{name: "lobby", args: "[--theme T] [--no-bell]", about: "open the lobby (what ssh with no command does)", terminal: true},
	{name: "rematch", args: "CODE [--wait]", about: "accept (or offer) a rematch of a finished game; prints the new room's code once every player has", run: (*Set).rematch},
	{name: "history", args: "[--json]", about: "list the games you hold a seat in", run: (*Set).history},
	{name: "mine", args: "[--json]", about: "list the games waiting on your move", run: (*Set).mine},
	{name: "name", args: "[NEW NAME]", about: "show your name, or change it for every table from now on", run: (*Set).name},
	{name: "profile", args: "[NAME] [--json]", about: "your record (or a player's): games, wins, ratings, favourite cards, recent games", run: (*Set).profile},
	{name: "top", args: "[--game G] [--limit N] [--json]", about: "a game's leaderboard of ratings", run: (*Set).top},
	{name: "link", args: "[CODE]", about: "show a one-time code to link another key to you, or link this key with one", run: (*Set).link},
	{name: "whoami", about: "show the identity your seats are bound to", run: (*Set).whoami},
	{name: "admin", args: "sessions|rooms|kick|ban|unban|end|announce …", about: "operators: see and steer this server", operator: true, run: (*Set).admin},
}

func init() { commands[0].run = (*Set).help }

// Run runs c's command line and returns its exit status. With no
// command, a terminal opens the lobby and a script gets the help.
//
// A terminal command's screen runs inside Run for as long as the player
// stays, on the session's goroutine: Run and what it calls on the way
// keep little on the stack meanwhile (see server's runTUI).
func (s *Set) Run(c *Call) int {
	line := c.Line
	switch {
	case len(line) == 0 && c.Terminal:
		line = []string{"lobby"}
	case len(line) == 0:
		line = []string{"help"}
	case line[0] == "-h" || line[0] == "--help":
		line = []string{"help"}
	case strings.HasPrefix(line[0], "-"):
		line = append([]string{"lobby"}, line...) // ssh -t host --theme mono
	}
	c.args = line[1:]
	cmd, ok := s.command(line[0], c.Player)
	if !ok {
		fmt.Fprintf(c.Err, "smokestack: unknown command %.40q\nRun `%s` for the list of commands.\n", line[0], s.Host.SSHCommand(false, "help"))
		return 1
	}
	c.Session.Started(kindOf(cmd))
	var err error
	if cmd.terminal {
		err = s.screen(c, cmd)
	} else {
		err = cmd.run(s, c)
	}
	return s.exitStatus(c, cmd, err)
}

// kindOf names a command's kind of session, for the server's figures.
func kindOf(cmd command) string {
	switch {
	case cmd.terminal:
		return "terminal"
	case cmd.name == "play":
		return "play"
	}
	return "command"
}

// command finds the command called name, as p may see it: the operators'
// commands do not exist for anyone else.
func (s *Set) command(name string, p lobby.Player) (command, bool) {
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 || commands[i].operator && s.Host.Operator(p) == "" {
		return command{}, false
	}
	return commands[i], true
}

// errUsage marks an error whose message already says what to type.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

// exitStatus tells the client what went wrong, if anything, and returns
// the command's exit status.
func (s *Set) exitStatus(c *Call, cmd command, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	err = told(c, err)
	fmt.Fprintf(c.Err, "smokestack %s: %v\n", cmd.name, err)
	var usage errUsage
	if errors.As(err, &usage) {
		fmt.Fprintf(c.Err, "usage: %s %s\n", cmd.name, cmd.args)
	}
	var refusal *lobby.LimitError
	if errors.As(err, &refusal) && refusal.Final {
		c.Session.EndConn(refusal.Msg)
	}
	return 1
}

// told is err as the player is told it: a wait the server cut short by
// ending the session (a slowed miss on a connection past the lookup
// limit) reads as why the server ended it.
func told(c *Call, err error) error {
	if note, ok := c.Session.Ended(); ok && errors.Is(err, context.Canceled) {
		return errors.New(note)
	}
	return err
}

// flags parses a command's arguments, flags before or after the positional
// ones, and checks the number of positional arguments.
func (c *Call) flags(fs *flag.FlagSet, want int, names string) ([]string, error) {
	return c.flagsUpTo(fs, want, want, names)
}

// flagsUpTo is flags for a command that takes want to most positional
// arguments.
func (c *Call) flagsUpTo(fs *flag.FlagSet, want, most int, names string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	args := c.args
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(pos) < want:
		return nil, errUsage{"missing " + names}
	case len(pos) > most:
		return nil, errUsage{fmt.Sprintf("unexpected argument %q", pos[most])}
	}
	return pos, nil
}

// roomArg joins a command's room and, for a guest coming back, seat word
// ("K7PXMA maple-42"); a second argument that is no seat word is refused.
func roomArg(pos []string) (string, error) {
	room := strings.Join(pos, " ")
	if _, word := lobby.SplitSeatWord(room); len(pos) > 1 && word == "" {
		return "", errUsage{fmt.Sprintf("unexpected argument %q: after the room comes only a guest's seat word (maple-42)", pos[1])}
	}
	return room, nil
}

// writeJSON prints v for scripts, indented.
func writeJSON(w io.Writer, v any) error {
	if rooms, ok := v.([]lobby.RoomInfo); ok && rooms == nil {
		v = []lobby.RoomInfo{} // scripts get [] rather than null
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
