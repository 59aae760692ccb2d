package room

import (
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
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
// whichever is later, and the service's downtimes since (pauses.go),
// which stop the clock. So every instance, and a server restarted,
// reckons the same deadline; each fires it from the room's own timer (bots.go),
// and the store's compare-and-set lets one bot move win.

// DefaultPublicClock is the clock of a public room that does not choose:
// strangers should not keep each other waiting, and two minutes is ample
// for a market turn or a work phase.
const DefaultPublicClock = 2 * time.Minute

// ClockOff, as CreateOptions.Clock, asks for no clock where the default
// would give one.
const ClockOff time.Duration = -1

// TurnBegan reports whether a game that stood at round beforeRound, with
// the seats before acting, begins new turns for the seats acting now, at
// round: the round changed, or a seat joined those acting. It is the one
// reading of a turn the rooms have: the clocks start by it, and the line
// mode says "your turn" by it (with the stage a board names, which the
// rooms do not know).
func TurnBegan(beforeRound int, before []int, round int, acting []int) bool {
	return round != beforeRound || slices.ContainsFunc(acting, func(s int) bool { return !slices.Contains(before, s) })
}

// turnClock is when each acting seat's turn began, for a room with a
// clock; empty without one. The room's lock guards it.
type turnClock struct {
	per    time.Duration     // each turn's time (store.Meta.Clock); 0 for none
	run    *Pauses           // when the service was down: no clock ran
	since  map[int]time.Time // acting seat -> when its turn began
	acting []int
	round  int
}

// start sets the clock to per a turn and begins the turns of the seats
// acting at the game's start, at.
func (c *turnClock) start(per time.Duration, run *Pauses, st engine.Status, at time.Time) {
	*c = turnClock{per: per, run: run}
	c.note(st, at)
}

// note takes in the game's status after a change made at time at,
// beginning new turns where it says a turn began.
func (c *turnClock) note(st engine.Status, at time.Time) {
	if c.per <= 0 {
		return
	}
	fresh := TurnBegan(c.round, c.acting, st.Round, st.Acting)
	since := make(map[int]time.Time, len(st.Acting))
	for _, seat := range st.Acting {
		if t, ok := c.since[seat]; ok && !fresh {
			since[seat] = t
		} else {
			since[seat] = at
		}
	}
	c.since, c.acting, c.round = since, slices.Clone(st.Acting), st.Round
}

// deadline is when seat's time for its turn runs out in the room m; ok is
// false when no clock runs for it (no clock, the game over, not acting,
// a bot's seat).
func (c *turnClock) deadline(seat int, m *store.Meta) (time.Time, bool) {
	if c.per <= 0 || m.Over || seat < 0 || seat >= len(m.Seats) {
		return time.Time{}, false
	}
	s := m.Seats[seat]
	since, acting := c.since[seat]
	if s.Bot != "" || s.Player == "" || !acting {
		return time.Time{}, false
	}
	if s.Since.After(since) {
		since = s.Since
	}
	if c.run == nil {
		return since.Add(c.per), true
	}
	return c.run.after(since, c.per), true
}

// outOfTime reports whether seat's time for its turn ran out by now
// while someone waits for it: a person in another seat at the table
// (present). A table everyone left waits for nobody, and a player coming
// back to it alone finds their turn still theirs; once another comes, it
// is not.
func (c *turnClock) outOfTime(seat int, m *store.Meta, now time.Time, present func(seat int) bool) bool {
	d, ok := c.deadline(seat, m)
	if !ok || now.Before(d) {
		return false
	}
	for other, s := range m.Seats {
		if other != seat && s.Player != "" && s.Bot == "" && present(other) {
			return true
		}
	}
	return false
}

// next is the earliest deadline still to come.
func (c *turnClock) next(m *store.Meta, now time.Time) (at time.Time, ok bool) {
	for seat := range c.since {
		if d, has := c.deadline(seat, m); has && d.After(now) && (!ok || d.Before(at)) {
			at, ok = d, true
		}
	}
	return at, ok
}
