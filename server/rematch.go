package server

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

// rematch accepts, or offers, a rematch of a finished game for a script:
// the new room's code goes to stdout once every seat has accepted; until
// then stderr says who is awaited, and --wait waits for them.
func (s *Server) rematch(c *call) error {
	fs := flag.NewFlagSet("rematch", flag.ContinueOnError)
	wait := fs.Bool("wait", false, "")
	pos, err := c.flags(fs, 1, "room CODE")
	if err != nil {
		return err
	}
	info, err := s.cfg.Lobby.Rematch(c.ctx, pos[0], c.player)
	if err != nil {
		return err
	}
	if info.Rematch.Code != "" {
		s.rematchMade(c, info.Rematch.Code)
		return nil
	}
	var names []string
	for _, seat := range info.Rematch.Waiting(len(info.Seats)) {
		names = append(names, info.Seats[seat].Name)
	}
	fmt.Fprintf(c.errOut, "You are in for a rematch of %s: waiting for %s.\n", info.Code, strings.Join(names, ", "))
	if !*wait {
		return nil
	}
	// Sitting in the old room, the player's own seat, hears the rematch
	// made wherever the last acceptance comes from.
	conn, err := s.cfg.Lobby.Join(c.ctx, pos[0], c.player)
	if err != nil {
		return err
	}
	defer conn.Close()
	for {
		select {
		case <-c.ctx.Done():
			if note, ok := noteFor(c.ctx); ok {
				return errors.New(string(note))
			}
			return nil
		case u := <-conn.Updates():
			if r := u.Room.Rematch; r != nil && r.Code != "" {
				s.rematchMade(c, r.Code)
				return nil
			}
		}
	}
}

func (s *Server) rematchMade(c *call, code string) {
	fmt.Fprintln(c.out, code)
	fmt.Fprintf(c.errOut, "The rematch is room %s, your seat kept for you: `ssh -t -p PORT HOST join %[1]s`, or `play %[1]s` for JSON lines.\n", code)
}
