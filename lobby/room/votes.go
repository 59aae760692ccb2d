package room

import (
	"fmt"
	"slices"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// A table never waits forever. A seat whose player is away (no session
// holds it on any instance: presence.go) for longer than the room's grace
// period may be handed to the game's default bot: every seated player who
// is present votes for it, and the seat goes to the bot once all of them
// have voted, or by itself after a second grace period. The player takes
// the seat back by joining again (room.reclaim). And while the host is
// away, the host's powers (bots in free seats, ending the game) pass to a
// present player.
//
// Every instance decides from the same facts: when the seat became empty
// (shared presence), the grace period and the votes (the room's stored
// metadata). Votes and the handover are metadata writes, so of two
// instances handing the same seat over at once the compare-and-set lets
// exactly one win; the other catches up and finds a bot already there.

// DefaultGrace is a room's grace period unless it chooses another.
const DefaultGrace = 2 * time.Minute

// Bounds on a room's grace period and clock, as `new` and the form take
// them: shorter would hand seats away over a dropped connection, longer
// would be no help to the table.
const (
	MinTurnTime = 5 * time.Second
	MaxTurnTime = 24 * time.Hour
)

// VoteResult says what a vote did.
type VoteResult struct {
	// HandedOver is true when the vote completed the table's: a bot now
	// plays the seat.
	HandedOver bool
	Bot        string
	// Votes and Needed count the present players' votes for the seat and
	// how many there are to give.
	Votes, Needed int
}

// GraceOf is room m's grace period.
func GraceOf(m store.Meta) time.Duration {
	if m.Grace > 0 {
		return m.Grace
	}
	return DefaultGrace
}

// DefaultBot is the bot that stands in for people: the game's first,
// which its registration lists strongest first; "" when it has none.
func (g Game) DefaultBot() string {
	if g.Bots.New == nil || len(g.Bots.Names) == 0 {
		return ""
	}
	return g.Bots.Names[0]
}

// seatVotes judges a table's votes, handovers and host's powers from the
// room's facts at one moment: its metadata, who is at the table, and the
// game's default bot. The room makes it under its lock (room.votes), and
// it is used under that lock.
type seatVotes struct {
	meta *store.Meta
	seen *presence
	bot  string  // the game's default bot; "" when it has none
	run  *Pauses // when the service was down: no grace period ran
}

// graceOver is when the seat's player has been away n grace periods of
// the service's running time (pauses.go).
func (v seatVotes) graceOver(seat, n int) time.Time {
	away, d := v.awaySince(seat), time.Duration(n)*GraceOf(*v.meta)
	if v.run == nil {
		return away.Add(d)
	}
	return v.run.after(away, d)
}

// check refuses by's vote for seat before presence is read, by what the
// room's metadata says; title is the game's. It returns the voter's seat.
func (v seatVotes) check(by Player, seat int, title string) (int, error) {
	m := v.meta
	voter := m.SeatOf(by.ID)
	if voter < 0 || m.Seats[voter].Bot != "" {
		return -1, errPlayersVote
	}
	if seat < 0 || seat >= len(m.Seats) {
		return -1, noSeat(seat)
	}
	s := m.Seats[seat]
	switch {
	case seat == voter:
		return -1, Refuse("that is your own seat", "lobby.ownSeat")
	case s.Free():
		return -1, Refuse(fmt.Sprintf("seat %d is free: the host seats bots there", seat+1), "lobby.seatFree", engine.Num("Seat", seat+1))
	case s.Bot != "":
		return -1, botThere(seat)
	case m.Over:
		return -1, errGameOver
	case !m.Started:
		return -1, Refuse("the game has not started: the seats fill first", "lobby.seatsFillFirst")
	case v.bot == "":
		return -1, noBots(title)
	}
	return voter, nil
}

// cast is voter's vote for seat at now, checked: the metadata with it,
// and what it did. Presence is as fresh as the store could tell.
func (v seatVotes) cast(voter, seat int, now time.Time) (store.Meta, VoteResult, error) {
	s := v.meta.Seats[seat]
	if v.seen.present(seat) {
		return store.Meta{}, VoteResult{}, Refuse(fmt.Sprintf("%s is still playing seat %d", s.Name, seat+1), "lobby.stillPlaying",
			engine.Str("Name", s.Name), engine.Num("Seat", seat+1))
	}
	if !v.seen.present(voter) {
		return store.Meta{}, VoteResult{}, errPlayersVote
	}
	away := v.awaySince(seat)
	if open := v.graceOver(seat, 1); now.Before(open) {
		return store.Meta{}, VoteResult{}, Refuse(fmt.Sprintf("%s has been away %s: the seat can go to a bot in %s",
			s.Name, ClockText(now.Sub(away)), ClockText(open.Sub(now))), "lobby.tooSoon",
			engine.Str("Name", s.Name), engine.Str("Away", ClockText(now.Sub(away))), engine.Str("Left", ClockText(open.Sub(now))))
	}
	m := *v.meta
	m.Votes = slices.DeleteFunc(slices.Clone(m.Votes), func(vote store.Vote) bool {
		return vote.Seat == seat && vote.By == voter || v.stale(vote)
	})
	m.Votes = append(m.Votes, store.Vote{Seat: seat, By: voter, Away: away})
	res := VoteResult{Bot: v.bot}
	res.Votes, res.Needed = v.tally(&m, seat)
	if res.Votes >= res.Needed {
		m = v.handedOver(m, seat)
		res.HandedOver = true
	}
	return m, res, nil
}

func (v seatVotes) awaySince(seat int) time.Time { return v.seen.awaySince(seat, v.meta.Updated) }

// handedOver is m with seat played by the default bot and its votes gone.
func (v seatVotes) handedOver(m store.Meta, seat int) store.Meta {
	m.Seats = slices.Clone(m.Seats)
	m.Seats[seat].Bot = v.bot
	m.Votes = slices.DeleteFunc(slices.Clone(m.Votes), func(vote store.Vote) bool { return vote.Seat == seat || v.stale(vote) })
	return m
}

// stale reports whether vote is for an absence that is over: its seat's
// player came back since (and may have left again), or it holds no
// person any more.
func (v seatVotes) stale(vote store.Vote) bool {
	if vote.Seat < 0 || vote.Seat >= len(v.meta.Seats) || !v.awayPerson(vote.Seat) {
		return true
	}
	return vote.Away.Before(v.awaySince(vote.Seat))
}

// tally counts, in m, the present players' votes for seat and how many
// present players there are to vote.
func (v seatVotes) tally(m *store.Meta, seat int) (votes, needed int) {
	for voter, s := range m.Seats {
		if voter == seat || s.Bot != "" || s.Player == "" || !v.seen.present(voter) {
			continue
		}
		needed++
		if slices.ContainsFunc(m.Votes, func(vote store.Vote) bool { return vote.Seat == seat && vote.By == voter && !v.stale(vote) }) {
			votes++
		}
	}
	return votes, needed
}

// awayPerson reports whether seat holds a person nobody holds right now.
func (v seatVotes) awayPerson(seat int) bool {
	s := v.meta.Seats[seat]
	return s.Player != "" && s.Bot == "" && !v.seen.present(seat)
}

// someoneHere reports whether any person sits at the table now, on any
// instance: only then is a table waiting for an away seat.
func (v seatVotes) someoneHere() bool {
	for seat, s := range v.meta.Seats {
		if s.Player != "" && s.Bot == "" && v.seen.present(seat) {
			return true
		}
	}
	return false
}

// handoverAt returns when seat is to go to a bot: at once when every
// present player has voted, else a second grace period after the votes
// opened. ok is false when no handover is coming: the game is not under
// way, the seat is not away, or nobody is at the table to wait for it.
func (v seatVotes) handoverAt(seat int) (at time.Time, ok bool) {
	m := v.meta
	if !m.Started || m.Over || v.bot == "" || !v.awayPerson(seat) || !v.someoneHere() {
		return time.Time{}, false
	}
	if votes, needed := v.tally(m, seat); needed > 0 && votes >= needed {
		return v.graceOver(seat, 1), true
	}
	return v.graceOver(seat, 2), true
}

// next is the earliest handoverAt of every seat, or seat -1. Only an
// instance with sessions in the room (watched) decides: without them its
// presence is stale, and one whose sessions keep it fresh will.
func (v seatVotes) next(watched bool) (at time.Time, seat int) {
	seat = -1
	if !watched {
		return at, seat
	}
	for s := range v.meta.Seats {
		if t, ok := v.handoverAt(s); ok && (seat < 0 || t.Before(at)) {
			at, seat = t, s
		}
	}
	return at, seat
}

// standIn is the seat holding the host's powers while the host is away:
// the first seat whose person is at the table, or -1 while the host is
// here (or nobody is). A host without a seat counts as here while one of
// their sessions watches through this instance (hostWatching).
func (v seatVotes) standIn(hostWatching bool) int {
	m := v.meta
	if h := m.SeatOf(m.Host); h >= 0 && m.Seats[h].Bot == "" && v.seen.present(h) {
		return -1
	} else if h < 0 && hostWatching {
		return -1
	}
	for seat, s := range m.Seats {
		if s.Player != "" && s.Bot == "" && v.seen.present(seat) {
			return seat
		}
	}
	return -1
}

// addTo adds to info what the table's countdowns show of the host's
// powers and each away seat's votes and handover.
func (v seatVotes) addTo(info *RoomInfo, hostWatching bool) {
	m := v.meta
	if s := v.standIn(hostWatching); s >= 0 {
		info.HostSeat, info.HostAway, info.standIn = s, true, m.Seats[s].Player
	}
	// Nobody at the table means no handover is coming (handoverAt) and
	// nobody who could vote: no countdown to show.
	here := v.someoneHere()
	for seat := range info.Seats {
		s := &info.Seats[seat]
		if !m.Started || m.Over || s.AwaySince.IsZero() || v.bot == "" || !here {
			continue
		}
		s.VotesFrom, s.BotAt = v.graceOver(seat, 1), v.graceOver(seat, 2)
		for _, vote := range m.Votes {
			if vote.Seat == seat && !v.stale(vote) && v.seen.present(vote.By) && !slices.Contains(s.Votes, vote.By) {
				s.Votes = append(s.Votes, vote.By)
			}
		}
		slices.Sort(s.Votes)
		_, s.VotesNeeded = v.tally(m, seat)
	}
}

// ClockText words a countdown as a clock shows it: 1:42, 1:02:05. A part
// of a second left shows as a whole one, so 0:00 means the time is up.
func ClockText(d time.Duration) string {
	s := int(max(0, d+time.Second-1).Seconds()) // 0.2s left shows as 0:01
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
