package cmd

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// adminUsage is what `help admin` and a mistyped admin command show.
const adminUsage = `admin sessions                      the sessions open, on every instance
admin rooms                         every room, private and finished ones too
admin kick SESSION                  close a session (its seat is kept), on whichever instance
admin ban KEY-FINGERPRINT|ADDRESS[/BITS] [--for 24h]
                                    keep a key or an address out, and close its sessions, on every instance
admin unban KEY-FINGERPRINT|ADDRESS[/BITS]
admin end CODE                      end a room's game for good
admin announce TEXT                 show TEXT on every terminal, on every instance

With a Redis shared between instances, sessions, kick, ban and announce
reach every instance through it, and say how many answered.`

// admin runs an operator's command. Every action is logged with who did it.
func (s *Set) admin(c *Call) error {
	if len(c.args) == 0 {
		return errUsage{"missing what to do"}
	}
	sub, args := c.args[0], c.args[1:]
	op := s.Host.Operator(c.Player)
	s.Log.Info("admin", "by", op, "key", c.Player.Key, "remote", c.Remote,
		"action", sub, "args", strings.Join(args, " "))
	one := func() (string, error) {
		if len(args) != 1 {
			return "", errUsage{fmt.Sprintf("admin %s takes one argument", sub)}
		}
		return args[0], nil
	}
	switch sub {
	case "sessions":
		return s.adminSessions(c)
	case "rooms":
		rooms, err := s.Lobby.AllRooms(c.Ctx)
		if err != nil {
			return err
		}
		return roomTable(c.Out, nil, s.Lobby, rooms)
	case "kick":
		id, err := one()
		if err != nil {
			return err
		}
		g := s.Host.Ask(c.Ctx, store.OperatorRequest{Kind: AskKick, Args: []string{id}})
		for _, a := range g.List {
			if a.N > 0 {
				fmt.Fprintln(c.Out, a.Text)
				return nil
			}
		}
		if g.Note != "" {
			return fmt.Errorf("no session %q on any instance that answered (%s): see admin sessions", id, g.Note)
		}
		return fmt.Errorf("no session %q here: see admin sessions", id)
	case "ban":
		return s.adminBan(c, args, op)
	case "unban":
		arg, err := one()
		if err != nil {
			return err
		}
		return s.adminUnban(c, arg)
	case "end":
		code, err := one()
		if err != nil {
			return err
		}
		if err := s.Lobby.EndByOperator(c.Ctx, code, "ended by an operator"); err != nil {
			return err
		}
		fmt.Fprintf(c.Out, "room %s ended\n", lobby.NormalizeCode(code))
		return nil
	case "announce":
		text := strings.TrimSpace(strings.Join(args, " "))
		if text == "" {
			return errUsage{"missing the TEXT to announce"}
		}
		g := s.Host.Ask(c.Ctx, store.OperatorRequest{Kind: AskAnnounce, Args: []string{text}})
		n := 0
		for _, a := range g.List {
			n += a.N
		}
		fmt.Fprintf(c.Out, "shown on %d terminal(s)\n", n)
		if g.Note != "" {
			fmt.Fprintln(c.Out, g.Note)
		}
		return nil
	}
	return errUsage{fmt.Sprintf("no admin command %q", sub)}
}

// adminSessions lists the sessions of every instance that answers, each
// with the instance it is on.
func (s *Set) adminSessions(c *Call) error {
	g := s.Host.Ask(c.Ctx, store.OperatorRequest{Kind: AskSessions})
	tw := newTable(c.Out)
	fmt.Fprintln(tw, "SESSION\tNAME\tKEY\tREMOTE\tKIND\tCOMMAND\tAGE\tIDLE\tINSTANCE")
	for _, a := range g.List {
		for _, row := range a.Rows {
			fmt.Fprintln(tw, strings.Join(append(row, a.Instance), "\t"))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if g.Note != "" {
		fmt.Fprintln(c.Out, g.Note)
	}
	return nil
}

func (s *Set) adminBan(c *Call, args []string, op string) error {
	fs := flag.NewFlagSet("admin ban", flag.ContinueOnError)
	lasts := fs.Duration("for", 0, "")
	sub := &Call{args: args}
	pos, err := sub.flags(fs, 1, "missing KEY-FINGERPRINT or ADDRESS")
	if err != nil {
		return err
	}
	target, err := store.BanTarget(pos[0])
	if err != nil {
		return errUsage{err.Error()}
	}
	if *lasts < 0 {
		return errUsage{"--for cannot be negative"}
	}
	now := time.Now().UTC()
	b := store.Ban{Target: target, By: op + " (" + c.Player.Key + ")", At: now}
	if *lasts > 0 {
		b.Until = now.Add(*lasts)
	}
	if err := s.Lobby.Ban(c.Ctx, b); err != nil {
		return err
	}
	s.Host.BansChanged()
	g := s.Host.Ask(c.Ctx, store.OperatorRequest{Kind: AskBanned, Args: []string{target, c.ID}})
	kicked := 0
	for _, a := range g.List {
		kicked += a.N
	}
	until := "until lifted"
	if !b.Until.IsZero() {
		until = "until " + b.Until.Format(time.RFC3339)
	}
	fmt.Fprintf(c.Out, "banned %s %s; closed %d session(s)\n", target, until, kicked)
	if g.Note != "" {
		fmt.Fprintln(c.Out, g.Note)
	}
	return nil
}

func (s *Set) adminUnban(c *Call, arg string) error {
	target, err := store.BanTarget(arg)
	if err != nil {
		return errUsage{err.Error()}
	}
	found, err := s.Lobby.Unban(c.Ctx, target)
	if err != nil {
		return err
	}
	s.Host.BansChanged()
	if !found {
		return fmt.Errorf("%s was not banned", target)
	}
	fmt.Fprintf(c.Out, "unbanned %s\n", target)
	return nil
}
