package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"

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
	// need ssh -t (terminal.go): with no run of their own, the screen is
	// all they do.
	terminal bool
	// operator marks commands only operators have (admin.go).
	operator bool
	// json marks the commands that print facts about the player or rooms:
	// they take the common --json (Call.JSON), which Run reads for them.
	json bool
	run  func(s *Set, c *Call) error
}

// commands lists the exec commands in the order help shows them.
var commands = []command{
	{name: "help", args: "[COMMAND]", about: "cmd.about.help"}, // run set in init: help lists commands
	{name: "rooms", args: "[--playing] [--json]", about: "cmd.about.rooms", json: true, run: (*Set).rooms},
	{name: "new", args: "[--game G] [--players N] [--private] [--seed S] [--bots B,B] [--grace 2m] [--clock 90s|off] [--sit] [--json] [game options]",
		about: "cmd.about.new", json: true, run: (*Set).newRoom},
	{name: "play", args: "CODE [WORD] [--watch]", about: "cmd.about.play", run: (*Set).play},
	{name: "join", args: "CODE [WORD] [--theme T] [--no-bell] [--plain]", about: "cmd.about.join", terminal: true},
	{name: "watch", args: "CODE [--theme T] [--no-bell] [--plain]", about: "cmd.about.watch", terminal: true},
	{name: "replay", args: "CODE [--theme T] [--no-bell] [--plain] | CODE --cast [--size 100x30] [--pace 1s] [--theme T]", about: "cmd.about.replay",
		terminal: true, run: (*Set).replay},
	{name: "lobby", args: "[--theme T] [--no-bell] [--plain]", about: "cmd.about.lobby", terminal: true},
	{name: "plain", args: "[on|off]", about: "cmd.about.plain", run: (*Set).plainCmd},
	{name: "rematch", args: "CODE [--wait] [--json]", about: "cmd.about.rematch", json: true, run: (*Set).rematch},
	{name: "history", args: "[--json]", about: "cmd.about.history", json: true, run: (*Set).history},
	{name: "mine", args: "[--json]", about: "cmd.about.mine", json: true, run: (*Set).mine},
	{name: "name", args: "[NEW NAME] [--json]", about: "cmd.about.name", json: true, run: (*Set).name},
	{name: "profile", args: "[NAME] [--json]", about: "cmd.about.profile", json: true, run: (*Set).profile},
	{name: "top", args: "[--game G] [--limit N] [--json]", about: "cmd.about.top", json: true, run: (*Set).top},
	{name: "link", args: "[CODE]", about: "cmd.about.link", run: (*Set).link},
	{name: "lang", args: "[en|pt|pl|ru|auto] [--json]", about: "cmd.about.lang", json: true, run: (*Set).langCmd},
	{name: "whoami", args: "[--json]", about: "cmd.about.whoami", json: true, run: (*Set).whoami},
	{name: "version", args: "[--json]", about: "cmd.about.version", json: true, run: (*Set).version},
	{name: "admin", args: "sessions|rooms|kick|ban|unban|end|announce …", about: "cmd.about.admin", operator: true, run: (*Set).admin},
}

func init() { commands[0].run = (*Set).help }

// Run runs c's command line and returns its exit status. With no
// command, a terminal opens the lobby and a script gets the help.
//
// What every command has is given here, once, so no command can lack it:
// its name in any case, --help (what `help CMD` prints), --json for the
// commands that print facts, a suggestion for a mistyped name, and with
// a terminal, errors wrapped at words to its width.
//
// A terminal command's screen runs inside Run for as long as the player
// stays, on the session's goroutine: Run and what it calls on the way
// keep little on the stack meanwhile (see server's runTUI).
func (s *Set) Run(c *Call) int {
	if c.Terminal && c.Width > 0 {
		ww := &wordWrapper{w: c.Err, width: c.Width}
		defer ww.flush()
		c.Err = ww
	}
	line := c.Line
	switch {
	case len(line) == 0 && c.Terminal:
		line = []string{"lobby"}
	case len(line) == 0:
		line = []string{"help"}
	case isHelpFlag(line[0]):
		line = []string{"help"}
	case strings.HasPrefix(line[0], "-"):
		line = append([]string{"lobby"}, line...) // ssh -t host --theme mono
	}
	c.args = line[1:]
	cmd, ok := s.command(line[0], c.Player)
	if !ok {
		fmt.Fprintf(c.Err, "smokestack: %s\n%s%s\n", c.T("cmd.unknown", "Name", fmt.Sprintf("%.40q", line[0])),
			s.suggest(c, line[0]), c.T("cmd.unknown_hint", "Command", s.Host.SSHCommand(false, "help")))
		return 1
	}
	if wantsHelp(c.args) {
		c.Session.Started("command")
		return s.exitStatus(c, cmd, s.helpOn(c, cmd.name))
	}
	if cmd.json {
		c.args, c.JSON = takeFlag(c.args, "json")
	}
	c.Session.Started(kindOf(cmd, c.args))
	var err error
	if cmd.run != nil {
		err = cmd.run(s, c)
	} else {
		err = s.screen(c, cmd)
	}
	return s.exitStatus(c, cmd, err)
}

// isHelpFlag reports whether arg asks for help, as the flag package takes it.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}

// wantsHelp reports whether a command's arguments ask for its help: a
// help flag before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelpFlag(a) {
			return true
		}
	}
	return false
}

// takeFlag takes the boolean flag name (-name, --name, --name=true…) out
// of args, before any "--", and reports whether it was set.
func takeFlag(args []string, name string) ([]string, bool) {
	var out []string
	set := false
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), set
		}
		flag, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || flag != name {
			out = append(out, a)
			continue
		}
		if b, err := strconv.ParseBool(value); hasValue && err == nil {
			set = b
		} else if hasValue {
			out = append(out, a) // a bad value: the command's flags refuse it
		} else {
			set = true
		}
	}
	return out, set
}

// suggest is the line that tells a player who typed an unknown command
// the commands nearest it, if any is near ("rooom" is one letter from
// "rooms"), or "".
func (s *Set) suggest(c *Call, typed string) string {
	typed = strings.ToLower(typed)
	best, near := 3, []string(nil) // more than two edits away is no typo
	for _, cmd := range commands {
		if cmd.operator && s.Host.Operator(c.Player) == "" {
			continue
		}
		d := levenshtein.ComputeDistance(typed, cmd.name)
		if len(typed) >= 3 && strings.HasPrefix(cmd.name, typed) {
			d = 1 // the start of a name, as a shell's completion takes it
		}
		switch {
		case d < best:
			best, near = d, []string{cmd.name}
		case d == best:
			near = append(near, cmd.name)
		}
	}
	if len(near) == 0 {
		return ""
	}
	for i, n := range near {
		near[i] = "`" + n + "`"
	}
	return c.T("cmd.did_you_mean", "Commands", strings.Join(near, " "+c.T("cmd.or")+" ")) + "\n"
}

// wordWrapper wraps each line written through it at its spaces to a
// terminal's width, which would otherwise break it mid-word; a word wider
// than the terminal keeps its own line. Without a terminal nothing is
// wrapped: a script reads one line a message.
type wordWrapper struct {
	w     io.Writer
	width int
	part  []byte // a line not yet ended
}

func (ww *wordWrapper) Write(p []byte) (int, error) {
	ww.part = append(ww.part, p...)
	for {
		i := bytes.IndexByte(ww.part, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(ww.part[:i])
		ww.part = ww.part[i+1:]
		if err := ww.line(line); err != nil {
			return len(p), err
		}
	}
}

func (ww *wordWrapper) line(line string) error {
	words := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' })
	if len(words) == 0 {
		_, err := io.WriteString(ww.w, line+"\n")
		return err
	}
	_, err := io.WriteString(ww.w, strings.Join(kit.WrapHanging("", "", words, " ", ww.width), "\n")+"\n")
	return err
}

// flush writes what is left of an unended line.
func (ww *wordWrapper) flush() {
	if len(ww.part) > 0 {
		_ = ww.line(string(ww.part))
		ww.part = nil
	}
}

// kindOf names a command's kind of session, for the server's figures.
func kindOf(cmd command, args []string) string {
	if _, cast := takeFlag(args, "cast"); cast && cmd.name == "replay" {
		return "command" // a recording, written with no terminal
	}
	switch {
	case cmd.terminal, cmd.name == "plain":
		return "terminal"
	case cmd.name == "play":
		return "play"
	}
	return "command"
}

// command finds the command called name, in any case, as p may see it:
// the operators' commands do not exist for anyone else.
func (s *Set) command(name string, p lobby.Player) (command, bool) {
	i := slices.IndexFunc(commands, func(c command) bool { return strings.EqualFold(c.name, name) })
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
	if errors.Is(err, flag.ErrHelp) {
		err = s.helpOn(c, cmd.name) // -help where a command reads its own flags
	}
	if err == nil {
		return 0
	}
	err = told(c, err)
	fmt.Fprintf(c.Err, "smokestack %s: %s\n", cmd.name, c.errText(err))
	var usage errUsage
	if errors.As(err, &usage) {
		fmt.Fprintf(c.Err, "%s %s %s\n", c.T("cmd.usage"), cmd.name, c.usage(cmd.args))
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
