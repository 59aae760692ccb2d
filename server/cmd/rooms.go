package cmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
	"github.com/smokestack/smokestack/session/kit"
)

// rooms lists the public rooms with a free seat, to join; with
// --playing, the public games in play instead, to watch.
func (s *Set) rooms(c *Call) error {
	fs := flag.NewFlagSet("rooms", flag.ContinueOnError)
	playing := fs.Bool("playing", false, "")
	if _, err := c.flags(fs, 0, ""); err != nil {
		return err
	}
	head, none := c.T("cmd.rooms.open_head", "Command", s.Host.SSHCommand(true, "join", c.usage("CODE"))), c.T("cmd.rooms.none")
	if *playing {
		head, none = c.T("cmd.rooms.playing_head", "Command", s.Host.SSHCommand(true, "watch", c.usage("CODE"))), c.T("cmd.rooms.playing_none")
	}
	return c.listRooms(s.Lobby, func(ctx context.Context) ([]lobby.RoomInfo, error) {
		// A page of the store's list; a room loaded here shows as it
		// stands now, which may have filled or started since.
		list := s.Lobby.OpenSeats
		if *playing {
			list = s.Lobby.InPlay
		}
		rooms, err := list(ctx)
		return slices.DeleteFunc(rooms, func(r lobby.RoomInfo) bool { return joinable(r) == *playing }), err
	}, head, none)
}

// joinable reports whether anyone may sit down in r: a seat is free and
// its game is still to start.
func joinable(r lobby.RoomInfo) bool { return r.Open() && !r.Started && !r.Over }

// listRooms lists rooms: as JSON with --json, for scripts, else under
// head as a table, or none when there are none.
func (c *Call) listRooms(l *lobby.Lobby, list func(context.Context) ([]lobby.RoomInfo, error), head, none string) error {
	rooms, err := list(c.Ctx)
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(c.Out, rooms)
	}
	if len(rooms) == 0 {
		fmt.Fprintln(c.Out, none)
		return nil
	}
	if head != "" {
		fmt.Fprintln(c.Out, head)
	}
	return roomTable(c.Out, lang.For(c.Lang), l, rooms)
}

// roomTable prints rooms for people, worded by p: code, seats, who sits,
// and where the game stands. l names a solo game's own opponent.
func roomTable(w io.Writer, p *lang.Printer, l *lobby.Lobby, rooms []lobby.RoomInfo) error {
	tw := newTable(w)
	fmt.Fprintln(tw, p.T("cmd.rooms.columns"))
	for _, r := range rooms {
		taken := 0
		var names []string
		for i, seat := range r.Seats {
			switch {
			case seat.Free:
				names = append(names, p.T("cmd.rooms.free"))
			default:
				taken++
				names = append(names, session.SeatName(p, r, i))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", r.Code, r.Game, taken, len(r.Seats), strings.Join(names, ", "), roomStatus(p, l, r))
	}
	return tw.Flush()
}

func roomStatus(p *lang.Printer, l *lobby.Lobby, r lobby.RoomInfo) string {
	status := gameStatus(p, l, r)
	if r.Practice && r.Seed != nil {
		status = p.T("cmd.rooms.practice", "Status", status, "Seed", *r.Seed)
	}
	if r.Hinted {
		status = p.T("cmd.rooms.hinted", "Status", status)
	}
	return status
}

// gameStatus is where r's game stands.
func gameStatus(p *lang.Printer, l *lobby.Lobby, r lobby.RoomInfo) string {
	switch {
	case r.Over && r.Ended == lobby.EndedByHost:
		return p.T("cmd.rooms.over_ended", "Ended", p.T("session.room.endedByHost"))
	case r.Over && r.Ended != "":
		return p.T("cmd.rooms.over_ended", "Ended", r.Ended) // an operator's words, as they wrote them
	case r.Over && r.Result != nil && len(r.Result.Scores) == len(r.Seats):
		return resultStatus(p, l, r)
	case r.Over:
		return p.T("cmd.rooms.over")
	case r.Started:
		return p.T("cmd.rooms.round", "Round", r.Round)
	default:
		return p.T("cmd.rooms.waiting")
	}
}

// resultStatus words a finished game's result, as the lobby's row tells
// it: who won, and every seat's score.
func resultStatus(p *lang.Printer, l *lobby.Lobby, r lobby.RoomInfo) string {
	res := r.Result
	var scores, winners []string
	for seat, score := range res.Scores {
		scores = append(scores, fmt.Sprintf("%s %d", session.SeatName(p, r, seat), score))
	}
	for _, seat := range res.Winners {
		if seat >= 0 && seat < len(r.Seats) {
			winners = append(winners, session.SeatName(p, r, seat))
		}
	}
	all := strings.Join(scores, ", ")
	switch {
	case len(winners) > 0:
		return p.T("cmd.rooms.won_by", "Names", kit.And(p, winners), "Scores", all)
	case res.Opponent != nil:
		return p.T("cmd.rooms.lost", "Name", session.OpponentOf(p, l, r), "Opponent", *res.Opponent, "Scores", all)
	}
	return p.T("cmd.rooms.nobody_won", "Scores", all)
}
