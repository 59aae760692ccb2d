package cmd

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// help lists the commands the player has, or tells of one, in the
// player's language: command names and flags stay as they are typed.
func (s *Set) help(c *Call) error {
	if len(c.args) > 0 {
		return s.helpOn(c, c.args[0])
	}
	lobbyCmd, joinCmd := s.Host.SSHCommand(false), s.Host.SSHCommand(true, "join", c.usage("CODE"))
	w := max(len(lobbyCmd), len(joinCmd)) + 2
	play := c.T("cmd.help.play")
	pad := max(len([]rune(play))+1, 8)
	fmt.Fprintf(c.Out, "%s\n\n%-*s%-*s%s\n%-*s%-*s%s\n\n%s\n", c.T("cmd.help.intro", "Games", s.titles(c)),
		pad, play, w, lobbyCmd, c.T("cmd.help.lobby"), pad, "", w, joinCmd, c.T("cmd.help.room"),
		c.T("cmd.help.commands", "Command", s.Host.SSHCommand(false, c.usage("COMMAND"))))
	for _, cmd := range commands {
		if cmd.operator && s.Host.Operator(c.Player) == "" {
			continue
		}
		t := ""
		if cmd.terminal {
			t = " (ssh -t)"
		}
		wrapped(c.Out, fmt.Sprintf("  %-8s ", cmd.name), strings.Repeat(" ", 11), c.T(cmd.about)+t)
	}
	fmt.Fprintf(c.Out, "\n%s\n%s\n", c.T("cmd.help.outro"), c.T("cmd.help.lang", "Name", c.Lang.Name()))
	if c.Player.Guest {
		fmt.Fprintln(c.Out, "\n"+c.T("cmd.guest_note"))
	}
	return nil
}

// helpOn tells of the command called name: its usage, what it does, and
// for new the games it can make.
func (s *Set) helpOn(c *Call, name string) error {
	cmd, ok := s.command(name, c.Player)
	if !ok {
		return errUsage{strings.TrimSuffix(c.T("cmd.help.no_command", "Name", fmt.Sprintf("%.40q", name))+"\n"+s.suggest(c, name), "\n")}
	}
	fmt.Fprintf(c.Out, "%s %s %s\n\n", c.T("cmd.usage"), cmd.name, c.usage(cmd.args))
	wrapped(c.Out, "", "", c.T(cmd.about))
	if cmd.name == "new" {
		s.gamesHelp(c, c.Out)
	}
	if cmd.operator {
		fmt.Fprintln(c.Out, "\n"+adminUsage)
	}
	if cmd.terminal {
		fmt.Fprintln(c.Out, "\n"+c.T("cmd.help.terminal", "Command", s.Host.SSHCommand(true, cmd.name, "…")))
	}
	return nil
}

// gamesHelp lists each game with its seats, options and bots, as `help new`
// shows them: all of it from the games' own registration, worded by the
// games' catalogue where it has the words.
func (s *Set) gamesHelp(c *Call, w io.Writer) {
	fmt.Fprintln(w, "\n"+c.T("cmd.help.games"))
	for _, g := range s.Lobby.Games() {
		lo, hi := g.Rules.Seats()
		fmt.Fprintf(w, "\n  %s\n", c.T("cmd.help.game", "Name", g.Name(), "Title", s.title(c, g.Name()), "Low", lo, "High", hi))
		for _, o := range g.Rules.Options() {
			only := ""
			if o.Seats != 0 {
				only = " " + c.N("cmd.help.seats_only", o.Seats)
			}
			if o.Needs != nil {
				only += " " + c.T("cmd.help.needs", "Option", o.Needs.Option, "Value", o.Needs.Value)
			}
			wrapped(w, fmt.Sprintf("    --%s %s: ", o.Name, strings.Join(o.Choices, "|")), indent,
				gameWord(c.Lang, "games."+g.Name()+".about."+o.Name, o.About)+"; "+c.T("cmd.help.default", "Value", o.DefaultValue())+only)
		}
		if len(g.Bots.Names) > 0 {
			wrapped(w, "    --bots "+strings.Join(g.Bots.Names, ",")+": ", indent, c.T("cmd.help.bots"))
			for _, b := range g.Bots.Names {
				if about := gameWord(c.Lang, "cmd.help.bot."+b, ""); about != "" {
					wrapped(w, "      "+b+": ", indent+"  ", about)
				}
			}
		}
	}
	fmt.Fprintf(w, "\n%s\n", c.T("cmd.help.every_game"))
	wrapped(w, "    --grace "+c.usage("DURATION")+": ", indent, c.T("cmd.help.grace", "Default", c.duration(lobby.DefaultGrace)))
	wrapped(w, "    --clock "+c.usage("DURATION")+"|off: ", indent, c.T("cmd.help.clock", "Default", c.duration(lobby.DefaultPublicClock)))
}

// helpWidth is the width help wraps its lines to: a terminal's least.
const helpWidth = 80

// indent is the indent of an option's help past its first line.
const indent = "      "

// wrapped writes text after prefix in lines of helpWidth, the lines after
// the first indented, breaking only at spaces.
func wrapped(w io.Writer, prefix, indent, text string) {
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' })
	for _, line := range kit.WrapHanging(prefix, indent, words, " ", helpWidth) {
		fmt.Fprintln(w, line)
	}
}

// gameWord is a game's word (its title, an option's help) from the
// games' catalogue in t, or english as the game registered it.
func gameWord(t lang.Tag, id, english string) string {
	return lang.For(t).Or(id, english)
}

// title is a game's title in the player's language.
func (s *Set) title(c *Call, game string) string {
	if g, ok := s.Lobby.Game(game); ok {
		return gameWord(c.Lang, "games."+game+".title", g.Rules.Title())
	}
	return game
}

// titles lists the games' titles, "A, B and C", in the player's language.
func (s *Set) titles(c *Call) string {
	var titles []string
	for _, g := range s.Lobby.Games() {
		titles = append(titles, s.title(c, g.Name()))
	}
	return kit.And(lang.For(c.Lang), titles)
}

// gameNames are the games' names, for the choice a bad --game is told.
func (s *Set) gameNames() []string {
	var names []string
	for _, g := range s.Lobby.Games() {
		names = append(names, g.Name())
	}
	return names
}

// gameChoice refuses a --game no game is called.
func (s *Set) gameChoice(c *Call, game string) error {
	return errUsage{c.T("cmd.game_choice", "Game", fmt.Sprintf("%q", game),
		"Choices", strings.Join(s.gameNames(), " "+c.T("cmd.or")+" "))}
}

// placeholder is what a usage line names for the player to fill in:
// CODE, NEW NAME, DURATION, [game options].
var placeholder = regexp.MustCompile(`[A-Z]{2,}( [A-Z]{2,})*|game options`)

// usage is a command's usage line (command.args) with its placeholders in
// the player's language (cmd.arg.PLACEHOLDER, a space as _): flags and
// their values stay as they are typed.
func (c *Call) usage(args string) string {
	return placeholder.ReplaceAllStringFunc(args, func(w string) string {
		return c.T("cmd.arg." + strings.ReplaceAll(w, " ", "_"))
	})
}
