package cmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smokestack/smokestack/lobby"
)

// rooms lists the open public rooms.
func (s *Set) rooms(c *Call) error {
	return c.listRooms("rooms", s.Lobby.Rooms, "No open public rooms. Create one with: new --players 2")
}

// listRooms runs a command that lists rooms: as JSON with --json, for
// scripts, else as a table, or none when there are none.
func (c *Call) listRooms(name string, list func(context.Context) ([]lobby.RoomInfo, error), none string) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	rooms, err := list(c.Ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.Out, rooms)
	}
	if len(rooms) == 0 {
		fmt.Fprintln(c.Out, none)
		return nil
	}
	return roomTable(c.Out, rooms)
}

// roomTable prints rooms for people: code, seats, who sits, and where the
// game stands.
func roomTable(w io.Writer, rooms []lobby.RoomInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CODE\tGAME\tSEATS\tPLAYERS\tSTATUS")
	for _, r := range rooms {
		taken := 0
		var names []string
		for _, seat := range r.Seats {
			switch {
			case seat.Free:
				names = append(names, "(free)")
			default:
				taken++
				names = append(names, seat.Name)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", r.Code, r.Game, taken, len(r.Seats), strings.Join(names, ", "), roomStatus(r))
	}
	return tw.Flush()
}

func roomStatus(r lobby.RoomInfo) string {
	if r.Practice && r.Seed != nil {
		return fmt.Sprintf("%s (practice, seed %d)", gameStatus(r), *r.Seed)
	}
	return gameStatus(r)
}

// gameStatus is where r's game stands.
func gameStatus(r lobby.RoomInfo) string {
	switch {
	case r.Over && r.Ended != "":
		return "over (" + r.Ended + ")"
	case r.Over:
		return "over"
	case r.Started:
		return fmt.Sprintf("round %d", r.Round)
	default:
		return "waiting for players"
	}
}
