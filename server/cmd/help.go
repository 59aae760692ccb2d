package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/smokestack/smokestack/lobby"
)

// help lists the commands the player has, or tells of one.
func (s *Set) help(c *Call) error {
	if len(c.args) > 0 {
		return s.helpOn(c, c.args[0])
	}
	lobbyCmd, joinCmd := s.Host.SSHCommand(false), s.Host.SSHCommand(true, "join", "CODE")
	w := max(len(lobbyCmd), len(joinCmd)) + 2
	fmt.Fprintf(c.Out, helpIntro, lobby.Titles(s.Lobby.Games()), w, lobbyCmd, w, joinCmd, s.Host.SSHCommand(false, "COMMAND"))
	for _, cmd := range commands {
		if cmd.operator && s.Host.Operator(c.Player) == "" {
			continue
		}
		t := ""
		if cmd.terminal {
			t = " (ssh -t)"
		}
		fmt.Fprintf(c.Out, "  %-8s %s%s\n", cmd.name, cmd.about, t)
	}
	fmt.Fprint(c.Out, helpOutro)
	if c.Player.Guest {
		fmt.Fprintln(c.Out, "\n"+GuestNote)
	}
	return nil
}

// helpOn tells of the command called name: its usage, what it does, and
// for new the games it can make.
func (s *Set) helpOn(c *Call, name string) error {
	cmd, ok := s.command(name, c.Player)
	if !ok {
		return fmt.Errorf("no command %q", name)
	}
	fmt.Fprintf(c.Out, "usage: %s %s\n\n%s\n", cmd.name, cmd.args, cmd.about)
	if cmd.name == "new" {
		s.gamesHelp(c.Out)
	}
	if cmd.operator {
		fmt.Fprintln(c.Out, "\n"+adminUsage)
	}
	if cmd.terminal {
		fmt.Fprintln(c.Out, "\nThis opens the game screen, so it needs a terminal: "+s.Host.SSHCommand(true, cmd.name, "…"))
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

// gamesHelp lists each game with its seats, options and bots, as `help new`
// shows them: all of it from the games' own registration.
func (s *Set) gamesHelp(w io.Writer) {
	fmt.Fprintln(w, "\nGames (--game NAME; the first is the default):")
	for _, g := range s.Lobby.Games() {
		lo, hi := g.Rules.Seats()
		fmt.Fprintf(w, "\n  %s: %s, %d to %d seats (--players)\n", g.Name(), g.Rules.Title(), lo, hi)
		for _, o := range g.Rules.Options() {
			only := ""
			if o.Seats != 0 {
				only = fmt.Sprintf(" (%d-seat games only)", o.Seats)
			}
			if o.Needs != nil {
				only += fmt.Sprintf(" (with --%s %s)", o.Needs.Option, o.Needs.Value)
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

// gameNames are the games' names, for the choice a bad --game is told.
func (s *Set) gameNames() []string {
	var names []string
	for _, g := range s.Lobby.Games() {
		names = append(names, g.Name())
	}
	return names
}
