package cmd

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/lobby"
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
	m, err := s.Lobby.Create(c.Ctx, c.Player, o)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.Out, m.Invite())
	fmt.Fprintf(c.Err, "Room %s (%s) is ready.\nYou host it: on its screen, b seats bots and E ends it.\n", m.Invite(), g.Rules.Title())
	if err := s.seatCreator(c, m.Invite(), *sit); err != nil {
		return err
	}
	fmt.Fprintf(c.Err, "To play, you or a friend:\n  %s\nScripts: %s\n",
		s.Host.SSHCommand(true, "join", m.Invite()), s.Host.SSHCommand(false, "play", m.Invite()))
	if !m.Public {
		fmt.Fprintf(c.Err, "It is private: share the whole invite. The code %s alone lets nobody in but its players.\n", m.Code)
	}
	if m.Practice {
		fmt.Fprintf(c.Err, "A practice room: its seed %d is shown to everyone, and its game counts for no ratings or records.\n", m.Seed)
	}
	clockNote := "no clock"
	if m.Clock > 0 {
		clockNote = lobby.ShortDuration(m.Clock) + " a turn on the clock"
	}
	fmt.Fprintf(c.Err, "A player away %s may have their seat handed to a bot; %s.\n", lobby.ShortDuration(m.Grace), clockNote)
	return nil
}

// seatCreator seats the room's creator, with --sit, and says who sits
// there: without it nobody does yet, the creator included, and the room
// shows under YOUR GAMES only once they sit down.
func (s *Set) seatCreator(c *Call, invite string, sit bool) error {
	if !sit {
		fmt.Fprintln(c.Err, "Nobody sits in it yet, not even you: it shows under YOUR GAMES in the\nlobby once you sit down (new --sit seats you as it is made).")
		return nil
	}
	conn, err := s.Lobby.Join(c.Ctx, invite, c.Player)
	if err != nil {
		return fmt.Errorf("the room is made, but you could not sit down: %w", err)
	}
	defer conn.Close() // the seat stays bound to the player
	var u lobby.Update
	select {
	case u = <-conn.Updates(): // the first comes at once
	case <-c.Ctx.Done():
		return c.Ctx.Err()
	}
	fmt.Fprintf(c.Err, "You sit in seat %d: it shows under YOUR GAMES in the lobby.\n", u.Seat+1)
	if u.SeatWord != "" {
		fmt.Fprintf(c.Err, "Your seat word is %s: as a guest, you come back from this address with\n  %s\n",
			u.SeatWord, s.Host.SSHCommand(true, "join", invite, u.SeatWord))
	}
	return nil
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
