package lobby

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

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

// graceOf is room m's grace period.
func graceOf(m store.Meta) time.Duration {
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

// Vote casts by's vote to hand seat, whose player is away, to the game's
// default bot. When every present player has voted, the bot takes the
// seat at once.
func (l *Lobby) Vote(ctx context.Context, code string, by Player, seat int) (VoteResult, error) {
	r, err := l.room(ctx, code)
	if err != nil {
		return VoteResult{}, err
	}
	return r.vote(ctx, by, seat)
}

func (r *room) vote(ctx context.Context, by Player, seat int) (VoteResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.voteLocked(ctx, by, seat)
}

// voteLocked is vote for a caller holding r.mu.
func (r *room) voteLocked(ctx context.Context, by Player, seat int) (VoteResult, error) {
	for attempt := 0; ; attempt++ {
		m, res, err := r.voted(ctx, by, seat)
		if err != nil {
			return VoteResult{}, err
		}
		err = r.saveMeta(ctx, m)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue // caught up: judge the vote again
		}
		if err != nil {
			return VoteResult{}, err
		}
		if res.HandedOver {
			r.l.cfg.Logger.Info("seat handed to a bot", "code", m.Code, "seat", seat, "bot", res.Bot, "by", "votes")
		}
		return res, nil
	}
}

// voted checks by's vote for seat and returns the metadata with it. The
// caller holds r.mu.
func (r *room) voted(ctx context.Context, by Player, seat int) (store.Meta, VoteResult, error) {
	voter := r.meta.SeatOf(by.ID)
	if voter < 0 || r.meta.Seats[voter].Bot != "" {
		return store.Meta{}, VoteResult{}, errors.New("only the players at the table can hand a seat to a bot")
	}
	if seat < 0 || seat >= len(r.meta.Seats) {
		return store.Meta{}, VoteResult{}, fmt.Errorf("there is no seat %d", seat+1)
	}
	s := r.meta.Seats[seat]
	switch {
	case seat == voter:
		return store.Meta{}, VoteResult{}, errors.New("that is your own seat")
	case s.Free():
		return store.Meta{}, VoteResult{}, fmt.Errorf("seat %d is free: the host seats bots there", seat+1)
	case s.Bot != "":
		return store.Meta{}, VoteResult{}, fmt.Errorf("a bot already plays seat %d", seat+1)
	case r.meta.Over:
		return store.Meta{}, VoteResult{}, errors.New("this game is over")
	case !r.meta.Started:
		return store.Meta{}, VoteResult{}, errors.New("the game has not started: the seats fill first")
	case r.game.DefaultBot() == "":
		return store.Meta{}, VoteResult{}, fmt.Errorf("%s has no bots on this server", r.rules.Title())
	}
	// Either may be at the table through another instance: ask.
	if err := r.readPresence(ctx); err != nil {
		r.l.storeFault("seat presence", err, "code", r.meta.Code)
		return store.Meta{}, VoteResult{}, fmt.Errorf("cannot tell whether %s is still playing seat %d: try again in a moment", s.Name, seat+1)
	}
	if r.present(seat) {
		return store.Meta{}, VoteResult{}, fmt.Errorf("%s is still playing seat %d", s.Name, seat+1)
	}
	if !r.present(voter) {
		return store.Meta{}, VoteResult{}, errors.New("only the players at the table can hand a seat to a bot")
	}
	now := r.l.cfg.Now()
	away := r.awaySince(seat)
	if open := away.Add(graceOf(r.meta)); now.Before(open) {
		return store.Meta{}, VoteResult{}, fmt.Errorf("%s has been away %s: the seat can go to a bot in %s",
			s.Name, ClockText(now.Sub(away)), ClockText(open.Sub(now)))
	}
	m := r.meta
	m.Votes = slices.DeleteFunc(slices.Clone(m.Votes), func(v store.Vote) bool {
		return v.Seat == seat && v.By == voter || r.staleVote(v)
	})
	m.Votes = append(m.Votes, store.Vote{Seat: seat, By: voter, Away: away})
	res := VoteResult{Bot: r.game.DefaultBot()}
	res.Votes, res.Needed = r.tally(m, seat)
	if res.Votes >= res.Needed {
		m = r.handedOver(m, seat)
		res.HandedOver = true
	}
	return m, res, nil
}

// handedOver is m with seat played by the default bot and its votes gone.
func (r *room) handedOver(m store.Meta, seat int) store.Meta {
	m.Seats = slices.Clone(m.Seats)
	m.Seats[seat].Bot = r.game.DefaultBot()
	m.Votes = slices.DeleteFunc(slices.Clone(m.Votes), func(v store.Vote) bool { return v.Seat == seat || r.staleVote(v) })
	return m
}

// staleVote reports whether v is for an absence that is over: its seat's
// player came back since (and may have left again), or it holds no
// person any more. The caller holds r.mu.
func (r *room) staleVote(v store.Vote) bool {
	if v.Seat < 0 || v.Seat >= len(r.meta.Seats) || !r.awayPerson(v.Seat) {
		return true
	}
	return v.Away.Before(r.awaySince(v.Seat))
}

// tally counts, in m, the present players' votes for seat and how many
// present players there are to vote. The caller holds r.mu.
func (r *room) tally(m store.Meta, seat int) (votes, needed int) {
	for voter, s := range m.Seats {
		if voter == seat || s.Bot != "" || s.Player == "" || !r.present(voter) {
			continue
		}
		needed++
		if slices.ContainsFunc(m.Votes, func(v store.Vote) bool { return v.Seat == seat && v.By == voter && !r.staleVote(v) }) {
			votes++
		}
	}
	return votes, needed
}

// awayPerson reports whether seat holds a person nobody holds right now.
func (r *room) awayPerson(seat int) bool {
	s := r.meta.Seats[seat]
	return s.Player != "" && s.Bot == "" && !r.present(seat)
}

// someoneHere reports whether any person sits at the table now, on any
// instance: only then is a table waiting for an away seat.
func (r *room) someoneHere() bool {
	for seat, s := range r.meta.Seats {
		if s.Player != "" && s.Bot == "" && r.present(seat) {
			return true
		}
	}
	return false
}

// handoverAt returns when seat is to go to a bot: at once when every
// present player has voted, else a second grace period after the votes
// opened. ok is false when no handover is coming: the game is not under
// way, the seat is not away, or nobody is at the table to wait for it.
// The caller holds r.mu.
func (r *room) handoverAt(seat int) (at time.Time, ok bool) {
	if !r.meta.Started || r.meta.Over || r.game.DefaultBot() == "" || !r.awayPerson(seat) || !r.someoneHere() {
		return time.Time{}, false
	}
	open := r.awaySince(seat).Add(graceOf(r.meta))
	if votes, needed := r.tally(r.meta, seat); needed > 0 && votes >= needed {
		return open, true
	}
	return open.Add(graceOf(r.meta)), true
}

// nextHandover is the earliest handoverAt of every seat, or seat -1.
// Only an instance with sessions in the room decides: without them its
// presence is stale, and one whose sessions keep it fresh will.
func (r *room) nextHandover() (at time.Time, seat int) {
	seat = -1
	if len(r.conns) == 0 {
		return at, seat
	}
	for s := range r.meta.Seats {
		if t, ok := r.handoverAt(s); ok && (seat < 0 || t.Before(at)) {
			at, seat = t, s
		}
	}
	return at, seat
}

// handOverDue hands to a bot a seat whose time has come, from the room's
// timer. Every instance with the room does it at the same moment; the
// compare-and-set lets one win, and the others catch up. The caller holds
// r.mu.
func (r *room) handOverDue(ctx context.Context) {
	at, seat := r.nextHandover()
	now := r.l.cfg.Now()
	if seat < 0 || now.Before(at) || now.Before(r.handoverRetry) {
		return
	}
	err := r.saveMeta(ctx, r.handedOver(r.meta, seat))
	switch {
	case errors.Is(err, store.ErrConflict):
		r.broadcast() // caught up: a bot may be there already
	case err != nil:
		r.handoverRetry = now.Add(botRetry)
		r.l.storeFault("hand a seat to a bot", err, "code", r.meta.Code, "seat", seat)
	default:
		r.l.cfg.Logger.Info("seat handed to a bot", "code", r.meta.Code, "seat", seat, "bot", r.game.DefaultBot(), "by", "time")
	}
}

// standIn is the seat holding the host's powers while the host is away:
// the first seat whose person is at the table, or -1 while the host is
// here (or nobody is). A host without a seat counts as here while one of
// their sessions watches through this instance.
func (r *room) standIn() int {
	if h := r.meta.SeatOf(r.meta.Host); h >= 0 && r.meta.Seats[h].Bot == "" && r.present(h) {
		return -1
	} else if h < 0 {
		for c := range r.conns {
			if c.player.ID == r.meta.Host {
				return -1
			}
		}
	}
	for seat, s := range r.meta.Seats {
		if s.Player != "" && s.Bot == "" && r.present(seat) {
			return seat
		}
	}
	return -1
}

// hostPowers reports whether p may do what the host does: p is the host,
// or stands in for an away host. The caller holds r.mu.
func (r *room) hostPowers(ctx context.Context, p Player) bool {
	if p.ID == "" {
		return false
	}
	if p.ID == r.meta.Host {
		return true
	}
	seat := r.meta.SeatOf(p.ID)
	if seat < 0 {
		return false
	}
	if err := r.readPresence(ctx); err != nil { // is the host here through another instance?
		r.l.storeFault("seat presence", err, "code", r.meta.Code)
	}
	return r.standIn() == seat
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

// tableInfo adds to info what the table's countdowns show: who has the
// host's powers, each away seat's votes and handover, each acting seat's
// clock. The caller holds r.mu.
func (r *room) tableInfo(info *RoomInfo) {
	if s := r.standIn(); s >= 0 {
		info.HostSeat, info.HostAway, info.standIn = s, true, r.meta.Seats[s].Player
	}
	now := r.l.cfg.Now()
	for seat := range info.Seats {
		s := &info.Seats[seat]
		if d, ok := r.deadline(seat); ok {
			s.Deadline, s.OutOfTime = d, r.outOfTime(seat, now)
		}
		if !r.meta.Started || r.meta.Over || s.AwaySince.IsZero() || r.game.DefaultBot() == "" {
			continue
		}
		s.VotesFrom = s.AwaySince.Add(graceOf(r.meta))
		s.BotAt = s.VotesFrom.Add(graceOf(r.meta))
		for _, v := range r.meta.Votes {
			if v.Seat == seat && !r.staleVote(v) && r.present(v.By) && !slices.Contains(s.Votes, v.By) {
				s.Votes = append(s.Votes, v.By)
			}
		}
		slices.Sort(s.Votes)
		_, s.VotesNeeded = r.tally(r.meta, seat)
	}
}
