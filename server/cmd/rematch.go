package cmd

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session"
)

// rematch accepts, or offers, a rematch of a finished game for a script:
// the new room's code goes to stdout once every seat has accepted; until
// then stderr says who is awaited, and --wait waits for them.
func (s *Set) rematch(c *Call) error {
	fs := flag.NewFlagSet("rematch", flag.ContinueOnError)
	wait := fs.Bool("wait", false, "")
	pos, err := c.flags(fs, 1, c.T("cmd.missing_room"))
	if err != nil {
		return err
	}
	info, err := s.Lobby.Rematch(c.Ctx, pos[0], c.Player)
	if err != nil {
		return err
	}
	if info.Rematch.Code != "" {
		return s.rematchMade(c, info.Rematch.Code)
	}
	var names []string
	for _, seat := range info.Rematch.Waiting(len(info.Seats)) {
		names = append(names, session.SeatName(lang.For(c.Lang), info, seat))
	}
	fmt.Fprintln(c.Err, c.T("cmd.rematch.waiting", "Code", info.Code, "Names", strings.Join(names, ", ")))
	if !*wait {
		return nil
	}
	// Sitting in the old room, the player's own seat, hears the rematch
	// made wherever the last acceptance comes from.
	conn, err := s.Lobby.Join(c.Ctx, pos[0], c.Player)
	if err != nil {
		return err
	}
	defer conn.Close()
	for {
		select {
		case <-c.Ctx.Done():
			if note, ok := c.Session.Ended(); ok {
				return errors.New(note)
			}
			return nil
		case u := <-conn.Updates():
			if r := u.Room.Rematch; r != nil && r.Code != "" {
				return s.rematchMade(c, r.Code)
			}
		}
	}
}

// rematchMade prints the rematch's code, or with --json its room as new
// --json prints one, and says how to play there.
func (s *Set) rematchMade(c *Call, code string) error {
	if !c.JSON {
		fmt.Fprintln(c.Out, code)
	}
	fmt.Fprintln(c.Err, c.T("cmd.rematch.made", "Code", code, "Join", s.Host.SSHCommand(true, "join", code),
		"Play", s.Host.SSHCommand(false, "play", code)))
	if c.JSON {
		return s.roomJSON(c, code)
	}
	return nil
}
