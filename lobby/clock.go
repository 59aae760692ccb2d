package lobby

import (
	"fmt"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
)

// A room may give each seat a clock: so long for each turn it acts in
// (Meta.Clock). When a seat's time runs out the game's default bot plays
// for it until its turn is over; the person stays seated and plays again
// from their next turn.
//
// A turn is read from the game's Status, the same for every game: a seat's
// turn begins when it starts acting, and lasts while it goes on acting. A
// new turn begins for every acting seat whenever a seat joins those
// acting, or the round changes; seats that finish leave the others' turns
// running. In Fantastic Factories that makes a market turn one turn and
// the work phase another, in Furnace each turn of the auction and the
// production.
//
// A clock runs out only while another person at the table waits: nobody
// is kept waiting at a table everyone left, and nobody there should come
// back to find the bots played on in the meantime.
//
// Deadlines come from stored facts only: the time of the move (Record.At)
// or of the game's start (Meta.StartedAt) after which the seat began
// acting, or the time its person took it back from a bot (Seat.Since),
// whichever is later. So every instance, and a server restarted, reckons
// the same deadline; each fires it from the room's own timer (bots.go),
// and the store's compare-and-set lets one bot move win.

// DefaultPublicClock is the clock of a public room that does not choose:
// strangers should not keep each other waiting, and two minutes is ample
// for a market turn or a work phase.
const DefaultPublicClock = 2 * time.Minute

// ClockOff, as CreateOptions.Clock, asks for no clock where the default
// would give one.
const ClockOff time.Duration = -1

// startTurns begins the turns of the first acting seats at the game's
// start. The caller holds r.mu.
func (r *room) startTurns(at time.Time) error {
	r.turnSince, r.turnActing, r.turnRound = nil, nil, 0
	if r.meta.Clock <= 0 {
		return nil
	}
	st, err := r.rules.Status(r.state)
	if err != nil {
		return err
	}
	r.noteTurns(st, at)
	return nil
}

// noteTurns takes in the game's status after a change made at time at,
// beginning new turns where it says a turn began. The caller holds r.mu.
func (r *room) noteTurns(st engine.Status, at time.Time) {
	if r.meta.Clock <= 0 {
		return
	}
	fresh := st.Round != r.turnRound || slices.ContainsFunc(st.Acting, func(s int) bool { return !slices.Contains(r.turnActing, s) })
	since := make(map[int]time.Time, len(st.Acting))
	for _, seat := range st.Acting {
		if t, ok := r.turnSince[seat]; ok && !fresh {
			since[seat] = t
		} else {
			since[seat] = at
		}
	}
	r.turnSince, r.turnActing, r.turnRound = since, slices.Clone(st.Acting), st.Round
}

// deadline is when seat's time for its turn runs out; ok is false when
// no clock runs for it (no clock, not acting, a bot's seat).
func (r *room) deadline(seat int) (time.Time, bool) {
	if r.meta.Clock <= 0 || r.state == nil || r.meta.Over || seat < 0 || seat >= len(r.meta.Seats) {
		return time.Time{}, false
	}
	s := r.meta.Seats[seat]
	since, acting := r.turnSince[seat]
	if s.Bot != "" || s.Player == "" || !acting {
		return time.Time{}, false
	}
	if s.Since.After(since) {
		since = s.Since
	}
	return since.Add(r.meta.Clock), true
}

// outOfTime reports whether seat's time for its turn ran out by now
// while someone waits for it: a person in another seat at the table. A
// table everyone left waits for nobody, and a player coming back to it
// alone finds their turn still theirs; once another comes, it is not.
func (r *room) outOfTime(seat int, now time.Time) bool {
	d, ok := r.deadline(seat)
	if !ok || now.Before(d) {
		return false
	}
	for other, s := range r.meta.Seats {
		if other != seat && s.Player != "" && s.Bot == "" && r.present(other) {
			return true
		}
	}
	return false
}

// nextDeadline is the earliest deadline still to come.
func (r *room) nextDeadline(now time.Time) (at time.Time, ok bool) {
	for seat := range r.turnSince {
		if d, has := r.deadline(seat); has && d.After(now) && (!ok || d.Before(at)) {
			at, ok = d, true
		}
	}
	return at, ok
}

// times checks a new room's grace period and clock and settles their
// defaults, which the room then stores.
func (o CreateOptions) times(g Game) (grace, clock time.Duration, err error) {
	grace = o.Grace
	switch {
	case grace == 0:
		grace = DefaultGrace
	case grace < MinTurnTime || grace > MaxTurnTime:
		return 0, 0, fmt.Errorf("a grace period is %s to %s, not %s", ShortDuration(MinTurnTime), ShortDuration(MaxTurnTime), ShortDuration(o.Grace))
	}
	switch {
	case o.Clock == ClockOff:
	case o.Clock == 0:
		if o.Public && o.Seats >= 2 && g.DefaultBot() != "" {
			clock = DefaultPublicClock
		}
	case o.Clock < MinTurnTime || o.Clock > MaxTurnTime:
		return 0, 0, fmt.Errorf("a clock is %s to %s a turn, or off; not %s", ShortDuration(MinTurnTime), ShortDuration(MaxTurnTime), ShortDuration(o.Clock))
	case g.DefaultBot() == "":
		return 0, 0, fmt.Errorf("%s has no bots here to play a turn whose time ran out: no clock", g.Rules.Title())
	default:
		clock = o.Clock
	}
	return grace, clock, nil
}
