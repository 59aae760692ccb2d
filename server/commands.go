package server

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// call is one exec command being run for a session.
type call struct {
	ctx    context.Context
	sess   ssh.Session
	player lobby.Player
	args   []string // after the command name
	live   *liveSession
	out    io.Writer
	errOut io.Writer
}

// command is one thing `ssh host COMMAND` can do.
type command struct {
	name  string
	args  string // usage after the name
	about string
	// terminal marks commands that open the TUI and so need ssh -t.
	terminal bool
	// operator marks commands only operators have (admin.go).
	operator bool
	run      func(s *Server, c *call) error
}

// commands lists the exec commands in the order help shows them.
var commands = []command{
	{name: "help", args: "[COMMAND]", about: "show this help, or one command's"}, // run set in init: help lists commands
	{name: "rooms", args: "[--json]", about: "list open public rooms", run: (*Server).rooms},
	{name: "new", args: "[--game G] [--players N] [--private] [--seed S] [--bots B,B] [--grace 2m] [--clock 90s|off] [game options]",
		about: "create a room and print its code on its own line (help new: games, options, bots)", run: (*Server).newRoom},
	{name: "play", args: "CODE [WORD] [--watch]", about: "play (or watch) a room as JSON lines: views out, moves in (see docs/protocol.md)", run: (*Server).play},
	{name: "join", args: "CODE [WORD] [--theme T] [--no-bell]", about: "open the game screen in your seat of that room (a guest coming back adds their seat word)", terminal: true},
	{name: "watch", args: "CODE [--theme T] [--no-bell]", about: "watch a room live", terminal: true},
	{name: "replay", args: "CODE [--theme T] [--no-bell]", about: "step through a finished game", terminal: true},
	{name: "lobby", args: "[--theme T] [--no-bell]", about: "open the lobby (what ssh with no command does)", terminal: true},
	{name: "rematch", args: "CODE [--wait]", about: "accept (or offer) a rematch of a finished game; prints the new room's code once every player has", run: (*Server).rematch},
	{name: "history", args: "[--json]", about: "list the games you hold a seat in", run: (*Server).history},
	{name: "mine", args: "[--json]", about: "list the games waiting on your move", run: (*Server).mine},
	{name: "name", args: "[NEW NAME]", about: "show your name, or change it for every table from now on", run: (*Server).name},
	{name: "profile", args: "[NAME] [--json]", about: "your record (or a player's): games, wins, ratings, favourite cards, recent games", run: (*Server).profile},
	{name: "top", args: "[--game G] [--limit N] [--json]", about: "a game's leaderboard of ratings", run: (*Server).top},
	{name: "link", args: "[CODE]", about: "show a one-time code to link another key to you, or link this key with one", run: (*Server).link},
	{name: "whoami", about: "show the identity your seats are bound to", run: (*Server).whoami},
	{name: "admin", args: "sessions|rooms|kick|ban|unban|end|announce …", about: "operators: see and steer this server", operator: true, run: (*Server).admin},
}

func init() { commands[0].run = (*Server).help }

func findCommand(name string) (command, bool) {
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 {
		return command{}, false
	}
	return commands[i], true
}

// errUsage marks an error whose message already says what to type.
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

// run runs the session's command and returns its exit status. A terminal
// session's program runs inside it for as long as the player stays, so
// its work before and after is done out of line (see runTUI).
func (s *Server) run(sess ssh.Session) int {
	c, cmd, status := s.newCall(sess)
	if c == nil {
		return status
	}
	kind := sessionKind(cmd)
	c.live.setKind(kind)
	s.metrics.sessions.WithLabelValues(kind).Inc()
	defer s.metrics.sessions.WithLabelValues(kind).Dec()
	var err error
	if cmd.terminal {
		var ts terminalStart
		if ts, err = s.openTerminal(c, cmd); err == nil {
			err = s.runTUI(c, ts)
		}
	} else {
		err = cmd.run(s, c)
	}
	return s.exitStatus(c, cmd, err)
}

// newCall reads the session's command line into a call and finds its
// command; a nil call is a command line refused with its status.
func (s *Server) newCall(sess ssh.Session) (*call, command, int) {
	live := s.liveOf(sess)
	args := sess.Command()
	if len(sess.RawCommand()) > maxCommand {
		fmt.Fprintf(sess.Stderr(), "smokestack: that command is %d bytes long; commands are short (run help)\n", len(sess.RawCommand()))
		return nil, command{}, 1
	}
	_, _, isPty := sess.Pty()
	switch {
	case len(args) == 0 && isPty:
		args = []string{"lobby"}
	case len(args) == 0:
		args = []string{"help"}
	case args[0] == "-h" || args[0] == "--help":
		args = []string{"help"}
	case strings.HasPrefix(args[0], "-"):
		args = append([]string{"lobby"}, args...) // ssh -t host --theme mono
	}
	c := &call{ctx: live.ctx, sess: sess, player: playerFrom(sess.Context()), args: args[1:], out: sess, errOut: sess.Stderr(), live: live}
	if isPty {
		// A terminal shows both streams on one screen, in the order the
		// client happens to read them: errors go on the output stream, so
		// a line said after a game screen cannot overtake its restored
		// terminal.
		c.errOut = sess
	}
	cmd, ok := s.command(args[0], c.player)
	if !ok {
		fmt.Fprintf(c.errOut, "smokestack: unknown command %.40q\nRun `%s` for the list of commands.\n", args[0], s.sshCommand(false, "help"))
		return nil, command{}, 1
	}
	return c, cmd, 0
}

// exitStatus tells the client what went wrong, if anything, and returns
// the command's exit status.
func (s *Server) exitStatus(c *call, cmd command, err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	err = toldAs(c.ctx, err)
	fmt.Fprintf(c.errOut, "smokestack %s: %v\n", cmd.name, err)
	var usage errUsage
	if errors.As(err, &usage) {
		fmt.Fprintf(c.errOut, "usage: %s %s\n", cmd.name, cmd.args)
	}
	var refusal *lobby.LimitError
	if errors.As(err, &refusal) && refusal.Final {
		s.endConn(c.sess, refusal.Msg)
	}
	return 1
}

// flags parses a command's arguments, flags before or after the positional
// ones, and checks the number of positional arguments.
func (c *call) flags(fs *flag.FlagSet, want int, names string) ([]string, error) {
	return c.flagsUpTo(fs, want, want, names)
}

// flagsUpTo is flags for a command that takes want to most positional
// arguments.
func (c *call) flagsUpTo(fs *flag.FlagSet, want, most int, names string) ([]string, error) {
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

func (s *Server) help(c *call) error {
	if len(c.args) > 0 {
		cmd, ok := s.command(c.args[0], c.player)
		if !ok {
			return fmt.Errorf("no command %q", c.args[0])
		}
		fmt.Fprintf(c.out, "usage: %s %s\n\n%s\n", cmd.name, cmd.args, cmd.about)
		if cmd.name == "new" {
			s.gamesHelp(c.out)
		}
		if cmd.operator {
			fmt.Fprintln(c.out, "\n"+adminUsage)
		}
		if cmd.terminal {
			fmt.Fprintln(c.out, "\nThis opens the game screen, so it needs a terminal: "+s.sshCommand(true, cmd.name, "…"))
		}
		return nil
	}
	lobbyCmd, joinCmd := s.sshCommand(false), s.sshCommand(true, "join", "CODE")
	w := max(len(lobbyCmd), len(joinCmd)) + 2
	fmt.Fprintf(c.out, helpIntro, lobby.Titles(s.cfg.Lobby.Games()), w, lobbyCmd, w, joinCmd, s.sshCommand(false, "COMMAND"))
	for _, cmd := range commands {
		if cmd.operator && !s.isOperator(c.player) {
			continue
		}
		t := ""
		if cmd.terminal {
			t = " (ssh -t)"
		}
		fmt.Fprintf(c.out, "  %-8s %s%s\n", cmd.name, cmd.about, t)
	}
	fmt.Fprint(c.out, helpOutro)
	if c.player.Guest {
		fmt.Fprintln(c.out, "\n"+GuestNote)
	}
	return nil
}

const helpIntro = `smokestack: %s over SSH.

Play:   %-*sthe lobby (needs a terminal)
        %-*sstraight into a room

Commands (%s):
`

const helpOutro = `
Run "help COMMAND" for a command's flags. Your seats are bound to your SSH
key (and the keys you link to it): connect with it to take your seat back.
`

func (s *Server) rooms(c *call) error {
	fs := flag.NewFlagSet("rooms", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	rooms, err := s.cfg.Lobby.Rooms(c.ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.out, rooms)
	}
	if len(rooms) == 0 {
		fmt.Fprintln(c.out, "No open public rooms. Create one with: new --players 2")
		return nil
	}
	return roomTable(c.out, rooms)
}

func (s *Server) history(c *call) error {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	rooms, err := s.cfg.Lobby.History(c.ctx, c.player.ID)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.out, rooms)
	}
	if len(rooms) == 0 {
		if c.player.Guest {
			fmt.Fprintln(c.out, "Guests have no history: connect with an SSH key to keep your games.")
		} else {
			fmt.Fprintln(c.out, "You have not played here yet.")
		}
		return nil
	}
	return roomTable(c.out, rooms)
}

// newRoom creates a room. Every game's options are flags (--difficulty
// for Fantastic Factories); the chosen game's rules refuse the others.
func (s *Server) newRoom(c *call) error {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	game := fs.String("game", "", "")
	players := fs.Int("players", 0, "")
	private := fs.Bool("private", false, "")
	seed := fs.Uint64("seed", 0, "")
	bots := fs.String("bots", "", "")
	grace := fs.Duration("grace", lobby.DefaultGrace, "")
	clock := fs.String("clock", "", "")
	options := map[string]*string{}
	for _, g := range s.cfg.Lobby.Games() {
		for _, o := range g.Rules.Options() {
			if options[o.Name] == nil {
				options[o.Name] = fs.String(o.Name, "", "")
			}
		}
	}
	_, err := c.flags(fs, 0, "")
	if err != nil {
		return err
	}
	g, ok := s.cfg.Lobby.Game(*game)
	if !ok {
		return errUsage{fmt.Sprintf("--game %q: choose %s", *game, strings.Join(s.gameNames(), " or "))}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	given := map[string]string{}
	for name, v := range options {
		if set[name] {
			given[name] = *v
		}
	}
	lo, hi := g.Rules.Seats()
	o := lobby.CreateOptions{Game: g.Name(), Seats: *players, Public: !*private, Seed: *seed, HasSeed: set["seed"], Grace: *grace}
	if o.Clock, err = clockFlag(*clock); err != nil {
		return err
	}
	if !set["players"] {
		o.Seats = max(lo, min(2, hi))
	}
	if len(given) > 0 {
		o.Options, _ = json.Marshal(given)
	}
	if o.Seats < lo || o.Seats > hi {
		return errUsage{fmt.Sprintf("--players %d: a game of %s has %d to %d seats", o.Seats, g.Rules.Title(), lo, hi)}
	}
	for b := range strings.SplitSeq(*bots, ",") {
		if b = strings.TrimSpace(b); b != "" {
			o.Bots = append(o.Bots, b)
		}
	}
	m, err := s.cfg.Lobby.Create(c.ctx, c.player, o)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, m.Invite())
	fmt.Fprintf(c.errOut, "Room %s (%s) is ready. To sit down, you or a friend:\n  %s\nScripts: %s\n",
		m.Invite(), g.Rules.Title(), s.sshCommand(true, "join", m.Invite()), s.sshCommand(false, "play", m.Invite()))
	if !m.Public {
		fmt.Fprintf(c.errOut, "It is private: share the whole invite. The code %s alone lets nobody in but its players.\n", m.Code)
	}
	if m.Practice {
		fmt.Fprintf(c.errOut, "A practice room: its seed %d is shown to everyone, and its game counts for no ratings or records.\n", m.Seed)
	}
	clockNote := "no clock"
	if m.Clock > 0 {
		clockNote = lobby.ShortDuration(m.Clock) + " a turn on the clock"
	}
	fmt.Fprintf(c.errOut, "A player away %s may have their seat handed to a bot; %s.\n", lobby.ShortDuration(m.Grace), clockNote)
	return nil
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

// clockFlag reads --clock: a duration, "off", or "" for the room's
// default (lobby.CreateOptions.Clock).
func clockFlag(v string) (time.Duration, error) {
	switch v {
	case "":
		return 0, nil
	case "off", "none", "0":
		return lobby.ClockOff, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, errUsage{fmt.Sprintf("--clock %q: a time a turn (90s, 2m) or off", v)}
	}
	return d, nil
}

func (s *Server) gameNames() []string {
	var names []string
	for _, g := range s.cfg.Lobby.Games() {
		names = append(names, g.Name())
	}
	return names
}

// gamesHelp lists each game with its seats, options and bots, as `help new`
// shows them: all of it from the games' own registration.
func (s *Server) gamesHelp(w io.Writer) {
	fmt.Fprintln(w, "\nGames (--game NAME; the first is the default):")
	for _, g := range s.cfg.Lobby.Games() {
		lo, hi := g.Rules.Seats()
		fmt.Fprintf(w, "\n  %s: %s, %d to %d seats (--players)\n", g.Name(), g.Rules.Title(), lo, hi)
		for _, o := range g.Rules.Options() {
			only := ""
			if o.Seats != 0 {
				only = fmt.Sprintf(" (%d-seat games only)", o.Seats)
			}
			fmt.Fprintf(w, "    --%s %s: %s; default %s%s\n", o.Name, strings.Join(o.Choices, "|"), o.About, o.DefaultValue(), only)
		}
		if len(g.Bots.Names) > 0 {
			fmt.Fprintf(w, "    --bots %s: bots for the last seats, comma-separated\n", strings.Join(g.Bots.Names, ","))
		}
	}
	fmt.Fprintf(w, "\nEvery game:\n    --grace DURATION: how long a player may be away before the others may hand their seat\n"+
		"      to the game's first bot (it goes by itself after as long again); default %s\n"+
		"    --clock DURATION|off: time for each turn, after which the seat's bot plays the turn;\n"+
		"      default %s for a public room of two seats or more, off otherwise\n",
		lobby.ShortDuration(lobby.DefaultGrace), lobby.ShortDuration(lobby.DefaultPublicClock))
}

// terminalStart is what a terminal command opens, and how.
type terminalStart struct {
	start  session.Start
	theme  string
	noBell bool
}

// openTerminal reads what a terminal command (join, watch, replay,
// lobby) opens, or says how to run it when the session has no terminal.
func (s *Server) openTerminal(c *call, cmd command) (terminalStart, error) {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	theme := fs.String("theme", themeFromEnv(c.sess.Environ()), "")
	noBell := fs.Bool("no-bell", bellOffFromEnv(c.sess.Environ()), "")
	want, most, names := 1, 1, "room CODE"
	switch cmd.name {
	case "lobby":
		want, most, names = 0, 0, ""
	case "join":
		most = 2 // a guest's seat word
	}
	pos, err := c.flagsUpTo(fs, want, most, names)
	if err != nil {
		return terminalStart{}, err
	}
	if _, err := roomArg(pos); err != nil {
		return terminalStart{}, err
	}
	switch *theme {
	case "default", "colorblind", "mono":
	default:
		return terminalStart{}, errUsage{fmt.Sprintf("--theme %q: choose default, colorblind or mono", *theme)}
	}
	if _, _, isPty := c.sess.Pty(); !isPty {
		hint := s.sshCommand(true, append([]string{cmd.name}, c.args...)...)
		if cmd.name == "lobby" {
			hint = s.sshCommand(false) + " (from a terminal)"
		}
		return terminalStart{}, fmt.Errorf("%s opens the game screen, which needs a terminal: run `%s`. Scripts can use `play CODE` instead", cmd.name, hint)
	}
	start := sessionStart(cmd.name, pos)
	if start.Code != "" {
		// Check the room now, so a typo gets a plain message instead of
		// a screen that opens only to say so.
		if _, err := s.cfg.Lobby.Info(c.ctx, start.Code, c.player); err != nil {
			return terminalStart{}, err
		}
	}
	return terminalStart{start: start, theme: *theme, noBell: *noBell}, nil
}

// themeFromEnv honours NO_COLOR and SMOKESTACK_THEME when the client sends
// them (ssh -o SendEnv=SMOKESTACK_THEME).
func themeFromEnv(env []string) string {
	theme := "default"
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "NO_COLOR" && v != "":
			theme = "mono"
		case k == "SMOKESTACK_THEME" && v != "":
			return v
		}
	}
	return theme
}

// bellOffFromEnv honours SMOKESTACK_BELL=off when the client sends it
// (ssh -o SendEnv=SMOKESTACK_BELL): no bell, no window title.
func bellOffFromEnv(env []string) bool {
	off := false
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == "SMOKESTACK_BELL" {
			off = v == "off" || v == "0" || v == "no"
		}
	}
	return off
}

func writeJSON(w io.Writer, v any) error {
	if rooms, ok := v.([]lobby.RoomInfo); ok && rooms == nil {
		v = []lobby.RoomInfo{} // scripts get [] rather than null
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
