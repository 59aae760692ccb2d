package room

import (
	"maps"
	"slices"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// presence is who holds a room's seats: the sessions here, and, with a
// store shared between instances, those elsewhere as last read. The
// room's lock guards it; the store is asked outside that lock, with a
// claim taken under it (claim) and the answer taken under it again
// (take).
type presence struct {
	here      map[int]int       // seat -> sessions here holding it
	away      map[int]time.Time // seat -> when its last session here left
	elsewhere map[int]bool      // seats sessions on other live instances hold
	lastHeld  map[int]time.Time // seat -> when any instance last held it
	// others is what the other instances claim, as last read; elsewhere
	// and lastHeld are it seen through the instances' heartbeats.
	others store.SharedPresence
	// started is when a seat never seen held has been away since, without
	// a shared store: this server's start (awaySince).
	started time.Time
	// shared says there are other instances, and what follows matters.
	shared  bool
	claimed []int // the seats this instance last claimed
	dirty   bool  // the seats held here changed since the last claim
	gen     int   // counts those changes
	asked   int   // numbers reads of the shared presence
	taken   int   // the newest read whose answer was taken
}

// arrive notes a session here taking seat (a spectator's is -1) and
// reports whether the other instances are to be told.
func (p *presence) arrive(seat int) bool {
	if seat < 0 {
		return false
	}
	if p.here == nil {
		p.here = map[int]int{}
	}
	p.here[seat]++
	delete(p.away, seat)
	return p.changed()
}

// leave notes a session here leaving seat at now and reports whether the
// other instances are to be told: its last session here left.
func (p *presence) leave(seat int, now time.Time) bool {
	if seat < 0 || p.here[seat] == 0 {
		return false
	}
	if p.here[seat]--; p.here[seat] > 0 {
		return false
	}
	delete(p.here, seat)
	if p.away == nil {
		p.away = map[int]time.Time{}
	}
	p.away[seat] = now
	return p.changed()
}

// changed notes that the seats held here changed, and reports whether
// there are other instances to tell.
func (p *presence) changed() bool {
	if !p.shared {
		return false
	}
	p.gen++
	p.dirty = true
	return true
}

// held lists the seats sessions here hold, in order.
func (p *presence) held() []int {
	seats := slices.Collect(maps.Keys(p.here))
	slices.Sort(seats)
	return seats
}

// present reports whether a session on any instance holds seat right now.
func (p *presence) present(seat int) bool { return p.presentHere(seat) || p.elsewhere[seat] }

// presentHere reports whether a session on this instance holds seat.
func (p *presence) presentHere(seat int) bool { return p.here[seat] > 0 }

// awaySince says since when a seated person nobody holds has been away:
// the latest time any instance knew the seat held. A seat never seen held
// since this server started — the room was stored before a restart — is
// away since the start: every session it had ended by then at the latest,
// and nothing stored says when it really left. The room's Updated time
// would often overstate it (a player can watch an idle table for hours),
// and the time the room was loaded would understate it more (a room is
// loaded when the first person comes back, maybe long after). With a
// shared store a seat without a record falls back to updated (the room's
// Updated) instead, which, unlike each instance's start, is the same on
// every instance.
func (p *presence) awaySince(seat int, updated time.Time) time.Time {
	since := p.away[seat]
	if t := p.lastHeld[seat]; t.After(since) {
		since = t
	}
	if since.IsZero() {
		since = p.started
		if p.shared {
			since = updated
		}
	}
	return since
}

// ask numbers a read of the shared presence about to be made.
func (p *presence) ask() int {
	p.asked++
	return p.asked
}

// take adopts the other instances' claims, as read by the read numbered
// ticket, seen through beats with liveness ttl, and reports whether that
// changed what the room shows. An answer to a read asked before one
// already taken is dropped: it may predate a claim that the newer read
// saw (the loop's own claim can come back after a catch-up's read), and
// whatever changed after the newer read is published anyway.
func (p *presence) take(ticket int, sp store.SharedPresence, beats store.Heartbeats, ttl time.Duration) (shown bool) {
	if ticket < p.taken {
		return false
	}
	p.taken = ticket
	p.others = sp
	return p.see(beats, ttl)
}

// see works out who holds which seat from the claims last read, seen
// through beats, and reports whether that changed what the room shows:
// an instance died (its seats go away, since its last heartbeat) or came
// back.
func (p *presence) see(beats store.Heartbeats, ttl time.Duration) (shown bool) {
	elsewhere, lastHeld := p.others.Seats(beats, ttl)
	shown = !maps.Equal(p.elsewhere, elsewhere)
	p.elsewhere = elsewhere
	// Only an away seat's time shows; a held seat's changing redraws
	// nothing. A seat missing from a map has the zero time there.
	for _, seats := range []map[int]time.Time{lastHeld, p.lastHeld} {
		for seat := range seats {
			shown = shown || !p.present(seat) && !lastHeld[seat].Equal(p.lastHeld[seat])
		}
	}
	p.lastHeld = lastHeld
	return shown
}

// presenceClaim is a room's claim to write, taken under the room's lock
// for the store to be asked outside it.
type presenceClaim struct {
	held   []int
	last   map[int]time.Time
	gen    int // the changes the claim covers
	ticket int // the read it makes
}

// claim is the claim to write when the seats held here changed since
// the last one written; leaving withdraws it. ok is false when there is
// nothing to write: a claim stands until replaced, and the instance's
// heartbeat, not the claim, says it is still alive.
func (p *presence) claim(leaving bool, now time.Time) (c presenceClaim, ok bool) {
	if !p.dirty && !(leaving && len(p.claimed) > 0) {
		return c, false
	}
	held := p.held()
	c.held = held
	if leaving {
		c.held = nil
	}
	c.last = maps.Clone(p.away)
	if c.last == nil {
		c.last = map[int]time.Time{}
	}
	if leaving {
		for _, seat := range held {
			c.last[seat] = now // held until now
		}
	}
	c.gen, c.ticket = p.gen, p.ask()
	return c, true
}

// reclaim marks the claim to be written again, as the store lost it.
func (p *presence) reclaim() {
	if p.shared && len(p.here) > 0 {
		p.gen++
		p.dirty = true
	}
}

// wrote notes that claim c was stored: it is clean unless the seats held
// here changed since it was taken.
func (p *presence) wrote(c presenceClaim) {
	p.claimed = c.held
	if p.gen == c.gen {
		p.dirty = false
	}
}
