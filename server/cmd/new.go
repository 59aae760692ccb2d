package cmd

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// newRoom creates a room. Every game's options are flags (--difficulty
// for Fantastic Factories); the chosen game's rules refuse the others.
func (s *Set) newRoom(c *Call) error {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	game := fs.String("game", "", "")
	players := fs.Int("players", 0, "")
	private := fs.Bool("private", false, "")
	seed := fs.Uint64("seed", 0, "")
	bots := fs.String("bots", "", "")
	grace := fs.Duration("grace", lobby.DefaultGrace, "")
	clock := fs.String("clock", "", "")
	sit := fs.Bool("sit", false, "")
	options := map[string]*string{}
	for _, g := range s.Lobby.Games() {
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
	g, ok := s.Lobby.Game(*game)
	if !ok {
		return s.gameChoice(c, *game)
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
	if o.Clock, err = c.clockFlag(*clock); err != nil {
		return err
	}
	if !set["players"] {
		o.Seats = max(lo, min(2, hi))
	}
	if len(given) > 0 {
		o.Options, _ = json.Marshal(given)
	}
	if o.Seats < lo || o.Seats > hi {
		return errUsage{c.T("cmd.new.players", "Players", o.Seats, "Title", s.title(c, g.Name()), "Low", lo, "High", hi)}
	}
	for b := range strings.SplitSeq(*bots, ",") {
		if b = strings.TrimSpace(b); b != "" {
			o.Bots = append(o.Bots, b)
		}
	}
	m, err := s.Lobby.Create(c.Ctx, c.Player, o)
	if err != nil {
		return err
	}
	if !c.JSON {
		fmt.Fprintln(c.Out, m.Invite())
	}
	fmt.Fprintf(c.Err, "%s\n%s\n", c.T("cmd.new.ready", "Invite", m.Invite(), "Title", s.title(c, g.Name())), c.T("cmd.new.host"))
	if err := s.seatCreator(c, m.Invite(), *sit); err != nil {
		return err
	}
	s.howToPlay(c, m)
	if c.JSON {
		return s.roomJSON(c, m.Invite())
	}
	return nil
}

// howToPlay tells the room's creator how to play in the room m, and what
// kind of room it is.
func (s *Set) howToPlay(c *Call, m store.Meta) {
	fmt.Fprintf(c.Err, "%s\n  %s\n%s %s\n", c.T("cmd.new.to_play"), s.Host.SSHCommand(true, "join", m.Invite()),
		c.T("cmd.new.scripts"), s.Host.SSHCommand(false, "play", m.Invite()))
	if !m.Public {
		fmt.Fprintln(c.Err, c.T("cmd.new.private", "Code", m.Code))
	}
	if m.Practice {
		fmt.Fprintln(c.Err, c.T("cmd.new.practice", "Seed", m.Seed))
	}
	clockNote := c.T("cmd.new.no_clock")
	if m.Clock > 0 {
		clockNote = c.T("cmd.new.clock_on", "Time", c.duration(m.Clock))
	}
	fmt.Fprintln(c.Err, c.T("cmd.new.away", "Grace", c.duration(m.Grace), "Clock", clockNote))
}

// createdRoom is what new --json prints: the room as rooms --json lists
// it, and the invite that opens it (a private room's code and secret).
type createdRoom struct {
	lobby.RoomInfo
	Invite string `json:"invite"`
}

// roomJSON prints the room invite opens, as it stands now, for scripts.
func (s *Set) roomJSON(c *Call, invite string) error {
	info, err := s.Lobby.Info(c.Ctx, invite, c.Player)
	if err != nil {
		return err
	}
	return writeJSON(c.Out, createdRoom{RoomInfo: info, Invite: invite})
}

// seatCreator seats the room's creator, with --sit, and says who sits
// there: without it nobody does yet, the creator included, and the room
// shows under YOUR GAMES only once they sit down.
func (s *Set) seatCreator(c *Call, invite string, sit bool) error {
	if !sit {
		fmt.Fprintln(c.Err, c.T("cmd.new.nobody_sits"))
		return nil
	}
	conn, err := s.Lobby.Join(c.Ctx, invite, c.Player)
	if err != nil {
		return fmt.Errorf("%s", c.T("cmd.new.sit_failed", "Error", c.errText(err)))
	}
	defer conn.Close() // the seat stays bound to the player
	var u lobby.Update
	select {
	case u = <-conn.Updates(): // the first comes at once
	case <-c.Ctx.Done():
		return c.Ctx.Err()
	}
	fmt.Fprintln(c.Err, c.T("cmd.new.seat", "Seat", u.Seat+1))
	if u.SeatWord != "" {
		fmt.Fprintf(c.Err, "%s\n  %s\n", c.T("cmd.new.seat_word", "Word", u.SeatWord), s.Host.SSHCommand(true, "join", invite, u.SeatWord))
	}
	return nil
}

// clockFlag reads --clock: a duration, "off", or "" for the room's
// default (lobby.CreateOptions.Clock).
func (c *Call) clockFlag(v string) (time.Duration, error) {
	switch v {
	case "":
		return 0, nil
	case "off", "none", "0":
		return lobby.ClockOff, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, errUsage{c.T("cmd.new.clock", "Value", fmt.Sprintf("%q", v))}
	}
	return d, nil
}
