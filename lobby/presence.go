package lobby

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// DefaultPresenceTTL is how long a claim on seats lasts unless renewed.
// Renewing every third of it lets a claim survive two missed renewals (a
// slow Redis, a long GC pause) before other instances show its seats away.
const DefaultPresenceTTL = 15 * time.Second

func (l *Lobby) presenceTTL() time.Duration {
	if l.cfg.PresenceTTL > 0 {
		return l.cfg.PresenceTTL
	}
	return DefaultPresenceTTL
}

// kickPresence asks the presence loop to share r's change soon. It never
// blocks: a pending kick covers every change made before it is taken.
func (l *Lobby) kickPresence(r *room) {
	l.dueMu.Lock()
	l.presenceDue[r] = true
	l.dueMu.Unlock()
	select {
	case l.presenceKick <- struct{}{}:
	default:
	}
}

// takeDue returns the rooms whose presence changed since the last call.
func (l *Lobby) takeDue() []*room {
	l.dueMu.Lock()
	defer l.dueMu.Unlock()
	rooms := slices.Collect(maps.Keys(l.presenceDue))
	clear(l.presenceDue)
	return rooms
}

// sharePresence keeps this instance's claims current until ctx ends: at
// once after a local change, and for every room with sessions here each
// renewal interval, which also reads what the other instances claim, so a
// lapsed claim shows as away within one interval of lapsing. When ctx ends
// it withdraws every claim, so a clean shutdown shows its players away at
// once rather than after the TTL. A store that cannot be reached only
// leaves the presence stale; moves never wait for it.
func (l *Lobby) sharePresence(ctx context.Context, p store.Presence) {
	every := l.presenceTTL() / 3
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		var rooms []*room
		all, leaving := false, false
		select {
		case <-ctx.Done():
			leaving = true
		case <-l.presenceKick:
			rooms = l.takeDue()
		case <-tick.C:
			all = true
		}
		if all || leaving {
			l.mu.Lock()
			rooms = slices.Collect(maps.Values(l.rooms))
			l.mu.Unlock()
		}
		parent, limit := ctx, every
		if leaving { // ctx is over, but the goodbye is worth a moment
			parent, limit = context.Background(), 2*time.Second
		}
		round, cancel := context.WithTimeout(parent, limit)
		for _, r := range rooms {
			r.sharePresence(round, p, all, leaving)
		}
		cancel()
		if leaving {
			return
		}
	}
}

// sharePresence writes this instance's claim on the room when it changed
// (or, with all, when it needs renewing) and takes in the other instances'
// claims. Leaving withdraws the claim. The store is asked without holding
// r.mu, so a slow store delays no move.
func (r *room) sharePresence(ctx context.Context, p store.Presence, all, leaving bool) {
	r.mu.Lock()
	held := r.heldSeats()
	if leaving {
		held = nil
	}
	write := r.presenceDirty || len(held) > 0 && all || leaving && len(r.claimed) > 0
	read := all && len(r.conns) > 0
	if !write && !read {
		r.mu.Unlock()
		return
	}
	now := r.l.presenceNow()
	last := maps.Clone(r.away)
	if last == nil {
		last = map[int]time.Time{}
	}
	for _, seat := range r.heldSeats() {
		last[seat] = now // on leaving, the seats held until now
	}
	code, gen, ticket := r.meta.Code, r.presenceGen, r.askPresence()
	r.mu.Unlock()

	var sp store.SharedPresence
	var err error
	if write {
		sp, err = p.ClaimSeats(ctx, code, held, last, now, r.l.presenceTTL())
	} else {
		sp, err = p.SeatPresence(ctx, code, now)
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.l.storeFault("seat presence not shared", err, "code", code)
		return // still dirty: the next round tries again
	}
	if write {
		r.claimed = held
		if r.presenceGen == gen {
			r.presenceDirty = false
		}
	}
	r.takePresence(ticket, sp)
}

// readPresence asks the store what the other instances claim, when there
// are other instances. The caller holds r.mu.
func (r *room) readPresence(ctx context.Context) error {
	if r.l.cluster == nil {
		return nil
	}
	ticket := r.askPresence()
	sp, err := r.l.cluster.SeatPresence(ctx, r.meta.Code, r.l.presenceNow())
	if err != nil {
		return err
	}
	r.takePresence(ticket, sp)
	return nil
}

// askPresence numbers a read of the shared presence about to be made. The
// caller holds r.mu.
func (r *room) askPresence() int {
	r.presenceAsked++
	return r.presenceAsked
}

// takePresence adopts the other instances' claims, as read by the read
// numbered ticket, and pushes new views if they changed what the room
// shows. An answer to a read asked before one already taken is dropped:
// it may predate a claim that the newer read saw (the loop's own claim can
// come back after a catch-up's read), and whatever changed after the newer
// read is published or found at the next renewal anyway. The caller holds
// r.mu.
func (r *room) takePresence(ticket int, sp store.SharedPresence) {
	if ticket < r.presenceTaken {
		return
	}
	r.presenceTaken = ticket
	shown := !maps.Equal(r.elsewhere, sp.Elsewhere)
	r.elsewhere = sp.Elsewhere
	// A held seat's time is renewed with every claim, a few times a
	// minute: it shows nowhere (only an away seat's does), so redrawing
	// every screen in the room for it would be work for nothing. A seat
	// missing from a map has the zero time there.
	for _, seats := range []map[int]time.Time{sp.LastHeld, r.lastHeld} {
		for seat := range seats {
			shown = shown || !r.present(seat) && !sp.LastHeld[seat].Equal(r.lastHeld[seat])
		}
	}
	r.lastHeld = sp.LastHeld
	if shown && len(r.conns) > 0 {
		r.broadcast()
	}
}

// presenceChanged notes that the seats held here changed. The caller holds
// r.mu.
func (r *room) presenceChanged() {
	if r.l.cluster == nil {
		return
	}
	r.presenceGen++
	r.presenceDirty = true
	r.l.kickPresence(r)
}

// heldSeats lists the seats sessions here hold, in order.
func (r *room) heldSeats() []int {
	var seats []int
	for c := range r.conns {
		if c.seat >= 0 && !slices.Contains(seats, c.seat) {
			seats = append(seats, c.seat)
		}
	}
	slices.Sort(seats)
	return seats
}

// present reports whether a session on any instance holds seat right now.
func (r *room) present(seat int) bool {
	return r.presentHere(seat) || r.elsewhere[seat]
}

// presentHere reports whether a session on this instance holds seat.
func (r *room) presentHere(seat int) bool {
	for c := range r.conns {
		if c.seat == seat {
			return true
		}
	}
	return false
}

// awaySince says since when a seated person nobody holds has been away:
// the latest time any instance knew the seat held. A seat never seen held
// since this server started — the room was stored before a restart — is
// away since the start: every session it had ended by then at the latest,
// and nothing stored says when it really left. The room's Updated time
// would often overstate it (a player can watch an idle table for hours),
// and the time the room was loaded would understate it more (a room is
// loaded when the first person comes back, maybe long after). With a
// shared store a seat without a record falls back to Updated instead,
// which, unlike each instance's start, is the same on every instance.
func (r *room) awaySince(seat int) time.Time {
	since := r.away[seat]
	if t := r.lastHeld[seat]; t.After(since) {
		since = t
	}
	if since.IsZero() {
		since = r.l.started
		if r.l.cluster != nil {
			since = r.meta.Updated
		}
	}
	return since
}

// presenceNow is the clock for presence, in milliseconds: what a shared
// store keeps, so every instance shows the very same away time.
func (l *Lobby) presenceNow() time.Time {
	return l.cfg.Now().UTC().Truncate(time.Millisecond)
}
