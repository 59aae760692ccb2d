package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// command is one thing `ssh host COMMAND` can do.
type command struct {
	name string
	args string // usage after the name
	// about is the message (cmd.about.NAME) that says what it does.
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
	{name: "help", args: "[COMMAND]", about: "cmd.about.help"}, // run set in init: help lists commands
	{name: "rooms", args: "[--json]", about: "cmd.about.rooms", run: (*Set).rooms},
	{name: "new", args: "[--game G] [--players N] [--private] [--seed S] [--bots B,B] [--grace 2m] [--clock 90s|off] [--sit] [game options]",
		about: "cmd.about.new", run: (*Set).newRoom},
	{name: "play", args: "CODE [WORD] [--watch]", about: "cmd.about.play", run: (*Set).play},
	{name: "join", args: "CODE [WORD] [--theme T] [--no-bell]", about: "cmd.about.join", terminal: true},
	{name: "watch", args: "CODE [--theme T] [--no-bell]", about: "cmd.about.watch", terminal: true},
	{name: "replay", args: "CODE [--theme T] [--no-bell]", about: "cmd.about.replay", terminal: true},
	{name: "lobby", args: "[--theme T] [--no-bell]", about: "cmd.about.lobby", terminal: true},
	{name: "rematch", args: "CODE [--wait]", about: "cmd.about.rematch", run: (*Set).rematch},
	{name: "history", args: "[--json]", about: "cmd.about.history", run: (*Set).history},
	{name: "mine", args: "[--json]", about: "cmd.about.mine", run: (*Set).mine},
	{name: "name", args: "[NEW NAME]", about: "cmd.about.name", run: (*Set).name},
	{name: "profile", args: "[NAME] [--json]", about: "cmd.about.profile", run: (*Set).profile},
	{name: "top", args: "[--game G] [--limit N] [--json]", about: "cmd.about.top", run: (*Set).top},
	{name: "link", args: "[CODE]", about: "cmd.about.link", run: (*Set).link},
	{name: "lang", args: "[en|pt|pl|ru|auto]", about: "cmd.about.lang", run: (*Set).langCmd},
	{name: "whoami", about: "cmd.about.whoami", run: (*Set).whoami},
	{name: "admin", args: "sessions|rooms|kick|ban|unban|end|announce …", about: "cmd.about.admin", operator: true, run: (*Set).admin},
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
		fmt.Fprintf(c.Err, "smokestack: %s\n%s\n", c.T("cmd.unknown", "Name", fmt.Sprintf("%.40q", line[0])),
			c.T("cmd.unknown_hint", "Command", s.Host.SSHCommand(false, "help")))
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
	fmt.Fprintf(c.Err, "smokestack %s: %s\n", cmd.name, c.errText(err))
	var usage errUsage
	if errors.As(err, &usage) {
		fmt.Fprintf(c.Err, "%s %s %s\n", c.T("cmd.usage"), cmd.name, cmd.args)
	}
	var refusal *lobby.LimitError
	if errors.As(err, &refusal) && refusal.Final {
		c.Session.EndConn(refusal.Msg)
	}
	return 1
}

// errText words err for the player: a refusal that carries its words
// (the lobby's, an engine's: engine.Refusal, a lobby.LimitError) in their
// language, any other error as it is.
func (c *Call) errText(err error) string {
	if c.Lang == lang.English || c.Lang == "" {
		return err.Error() // the refusal's own English text
	}
	t := kit.Theme{}.In(lang.For(c.Lang))
	var lim *lobby.LimitError
	if errors.As(err, &lim) && lim.Words.ID != "" {
		return kit.Say(t, "", lim.Words)
	}
	return kit.Refusal(t, "", err)
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
// ones, and checks the number of positional arguments: too few are told
// missing, worded.
func (c *Call) flags(fs *flag.FlagSet, want int, missing string) ([]string, error) {
	return c.flagsUpTo(fs, want, want, missing)
}

// flagsUpTo is flags for a command that takes want to most positional
// arguments.
func (c *Call) flagsUpTo(fs *flag.FlagSet, want, most int, missing string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	args := c.args
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage{c.flagError(err)}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(pos) < want:
		return nil, errUsage{missing}
	case len(pos) > most:
		return nil, errUsage{c.T("cmd.unexpected", "Arg", fmt.Sprintf("%q", pos[most]))}
	}
	return pos, nil
}

// badFlag reads the flag package's complaints, to word them again.
var badFlag = regexp.MustCompile(`^(?:flag provided but not defined: (-\S+)|flag needs an argument: (-\S+)|invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for flag (-\S+).*)$`)

// flagError words what the flag package refused, in the player's
// language.
func (c *Call) flagError(err error) string {
	m := badFlag.FindStringSubmatch(err.Error())
	switch {
	case m == nil:
		return err.Error()
	case m[1] != "":
		return c.T("cmd.flag_unknown", "Flag", m[1])
	case m[2] != "":
		return c.T("cmd.flag_needs_value", "Flag", m[2])
	}
	return c.T("cmd.flag_bad_value", "Value", m[3], "Flag", m[4])
}

// roomArg joins a command's room and, for a guest coming back, seat word
// ("K7PXMA maple-42"); a second argument that is no seat word is refused.
func (c *Call) roomArg(pos []string) (string, error) {
	room := strings.Join(pos, " ")
	if _, word := lobby.SplitSeatWord(room); len(pos) > 1 && word == "" {
		return "", errUsage{c.T("cmd.seat_word_only", "Arg", fmt.Sprintf("%q", pos[1]))}
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
