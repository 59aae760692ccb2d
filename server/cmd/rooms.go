package cmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
)

// rooms lists the open public rooms.
func (s *Set) rooms(c *Call) error {
	return c.listRooms("rooms", s.Lobby.Rooms, c.T("cmd.rooms.none"))
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
	return roomTable(c.Out, lang.For(c.Lang), rooms)
}

// roomTable prints rooms for people, worded by p: code, seats, who sits,
// and where the game stands.
func roomTable(w io.Writer, p *lang.Printer, rooms []lobby.RoomInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.T("cmd.rooms.columns"))
	for _, r := range rooms {
		taken := 0
		var names []string
		for _, seat := range r.Seats {
			switch {
			case seat.Free:
				names = append(names, p.T("cmd.rooms.free"))
			default:
				taken++
				names = append(names, seat.Name)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", r.Code, r.Game, taken, len(r.Seats), strings.Join(names, ", "), roomStatus(p, r))
	}
	return tw.Flush()
}

func roomStatus(p *lang.Printer, r lobby.RoomInfo) string {
	if r.Practice && r.Seed != nil {
		return p.T("cmd.rooms.practice", "Status", gameStatus(p, r), "Seed", *r.Seed)
	}
	return gameStatus(p, r)
}

// gameStatus is where r's game stands.
func gameStatus(p *lang.Printer, r lobby.RoomInfo) string {
	switch {
	case r.Over && r.Ended == lobby.EndedByHost:
		return p.T("cmd.rooms.over_ended", "Ended", p.T("session.room.endedByHost"))
	case r.Over && r.Ended != "":
		return p.T("cmd.rooms.over_ended", "Ended", r.Ended) // an operator's words, as they wrote them
	case r.Over:
		return p.T("cmd.rooms.over")
	case r.Started:
		return p.T("cmd.rooms.round", "Round", r.Round)
	default:
		return p.T("cmd.rooms.waiting")
	}
}
