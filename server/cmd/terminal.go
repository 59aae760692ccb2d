package cmd

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/session"
)

// The terminal commands, join, watch, replay and lobby, open the game
// screen: each reads its flags and the room here, and the server runs
// the screen on the session's terminal.

// terminalStart is what a terminal command opens, and how.
type terminalStart struct {
	start  session.Start
	theme  string
	noBell bool
	// plain opens the line mode (session/line) instead of the screen.
	plain bool
}

// screen opens the game screen a terminal command asks for, and returns
// once the player leaves it. Its frame stays on the session's stack all
// the while: what it reads first is read in openTerminal.
func (s *Set) screen(c *Call, cmd command) error {
	ts, err := s.openTerminal(c, cmd)
	if err != nil {
		return err
	}
	if ts.plain {
		return c.Session.Lines(ts.start)
	}
	return c.Session.Screen(ts.start, ts.theme, ts.noBell)
}

// openTerminal reads what a terminal command (join, watch, replay,
// lobby) opens, or says how to run it when the session has no terminal.
func (s *Set) openTerminal(c *Call, cmd command) (terminalStart, error) {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	theme := fs.String("theme", themeFromEnv(c.Env), "")
	noBell := fs.Bool("no-bell", bellOffFromEnv(c.Env), "")
	// The line mode, asked for or needed: a terminal that cannot move
	// its cursor cannot show the screen.
	plain := fs.Bool("plain", cmd.name == "plain" || c.Dumb || c.Player.Plain, "")
	want, most := 1, 1
	switch cmd.name {
	case "lobby", "plain":
		want, most = 0, 0
	case "join":
		most = 2 // a guest's seat word
	}
	pos, err := c.flagsUpTo(fs, want, most, c.T("cmd.missing_room"))
	if err != nil {
		return terminalStart{}, err
	}
	if _, err := c.roomArg(pos); err != nil {
		return terminalStart{}, err
	}
	if err := c.checkTheme(*theme); err != nil {
		return terminalStart{}, err
	}
	if !c.Terminal && !*plain {
		hint := s.Host.SSHCommand(true, append([]string{cmd.name}, c.args...)...)
		if cmd.name == "lobby" {
			hint = s.Host.SSHCommand(false) + " " + c.T("cmd.terminal.from_terminal")
		}
		return terminalStart{}, errors.New(c.T("cmd.terminal.needs", "Name", cmd.name, "Hint", hint))
	}
	start := sessionStart(cmd.name, pos)
	if start.Code != "" {
		// Check the room now, so a typo gets a plain message instead of
		// a screen that opens only to say so.
		if _, err := s.Lobby.Info(c.Ctx, start.Code, c.Player); err != nil {
			return terminalStart{}, err
		}
	}
	return terminalStart{start: start, theme: *theme, noBell: *noBell, plain: *plain}, nil
}

// checkTheme refuses a --theme the screens do not have.
func (c *Call) checkTheme(theme string) error {
	switch theme {
	case "default", "colorblind", "mono":
		return nil
	}
	return errUsage{c.T("cmd.terminal.theme", "Value", fmt.Sprintf("%q", theme))}
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

// sessionStart maps a terminal command to the screen it opens on.
func sessionStart(cmd string, pos []string) session.Start {
	if cmd == "lobby" || cmd == "plain" || len(pos) == 0 {
		return session.Start{Mode: "lobby", Back: true} // back to your seat, if one waits
	}
	return session.Start{Mode: cmd, Code: strings.Join(pos, " ")} // CODE, or CODE WORD
}
