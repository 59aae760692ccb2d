package lobby

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// DefaultPresenceTTL is how long an instance's claims on seats count
// after its last heartbeat. Beating every third of it lets an instance
// survive two missed heartbeats (a slow Redis, a long GC pause) before
// other instances show its seats away.
const DefaultPresenceTTL = 15 * time.Second

// presenceWorkers is how many rooms share their presence at once.
const presenceWorkers = 8

// claims shares with the other instances which seats the sessions here
// hold: the instance's heartbeat, which keeps all its claims alive at
// once, and the claims of the rooms whose seats held here changed. It is
// made with what it needs and nothing of the Lobby.
type claims struct {
	// ttl is how long the others count this instance's claims without
	// hearing its heartbeat.
	ttl time.Duration
	now func() time.Time
	// fault counts and logs a store error (the lobby's storeFault).
	fault func(what string, err error, attrs ...any)
	// loadedRooms lists the rooms loaded here (access).
	loadedRooms func() []*room.Room
	kick        chan struct{}
	mu          sync.Mutex
	due         map[*room.Room]bool // rooms whose seats held here changed
	// beats is the newest heartbeats read: which instances live.
	beats atomic.Pointer[store.Heartbeats]
}

func newClaims(ttl time.Duration, now func() time.Time) *claims {
	if ttl <= 0 {
		ttl = DefaultPresenceTTL
	}
	return &claims{ttl: ttl, now: now, kick: make(chan struct{}, 1), due: map[*room.Room]bool{}}
}

// heartbeats is the instances' newest heartbeats as read here, zero
// before the first: every claim then counts.
func (c *claims) heartbeats() store.Heartbeats {
	if b := c.beats.Load(); b != nil {
		return *b
	}
	return store.Heartbeats{}
}

// kickPresence asks the presence loop to share r's change soon. It never
// blocks: a pending kick covers every change made before it is taken.
func (c *claims) kickPresence(r *room.Room) {
	c.mark(r)
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// mark has r's claim shared at the next round.
func (c *claims) mark(r *room.Room) {
	c.mu.Lock()
	c.due[r] = true
	c.mu.Unlock()
}

// takeDue returns the rooms whose presence changed since the last call.
func (c *claims) takeDue() []*room.Room {
	c.mu.Lock()
	defer c.mu.Unlock()
	rooms := slices.Collect(maps.Keys(c.due))
	clear(c.due)
	return rooms
}

// sharePresence keeps this instance's claims current until ctx ends. Its
// heartbeat, every third of the TTL and at once, is one write whatever
// the rooms: it keeps every claim of this instance alive, and reads the
// others' heartbeats, so a dead instance's seats show away within a
// heartbeat of its TTL running out. A room's claim is written at once
// after its seats held here change, and again at the next heartbeat if
// that failed. When ctx ends it withdraws every claim, so a clean
// shutdown shows its players away at once rather than after the TTL. A
// store that cannot be reached only leaves the presence stale; moves
// never wait for it.
func (c *claims) sharePresence(ctx context.Context, p store.Presence) {
	every := c.ttl / 3
	tick := time.NewTicker(every)
	defer tick.Stop()
	c.beat(ctx, p, every)
	for {
		var rooms []*room.Room
		leaving := false
		select {
		case <-ctx.Done():
			leaving = true
			rooms = c.loadedRooms()
		case <-c.kick:
			rooms = c.takeDue()
		case <-tick.C:
			c.beat(ctx, p, every)
			rooms = c.takeDue() // claims that failed, and any lost
		}
		c.share(ctx, p, rooms, every, leaving)
		if leaving {
			return
		}
	}
}

// beat says this instance is alive and reads the others' heartbeats.
// Every room here then sees the claims it last read through them, with
// no read of the store: a claim whose instance's heartbeat has been
// silent for the TTL stops counting. That is a few microseconds a room,
// and only a room whose seats change shows it. When the store lost this
// instance's record, every room's claim is to be written again.
func (c *claims) beat(ctx context.Context, p store.Presence, limit time.Duration) {
	round, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	beats, lost, err := p.Heartbeat(round, c.now().UTC().Truncate(time.Millisecond))
	if err != nil {
		c.fault("heartbeat", err)
		return // the others count this instance alive for the TTL
	}
	c.beats.Store(&beats)
	for _, r := range c.loadedRooms() {
		r.SeePresence()
		if lost {
			r.ReclaimPresence()
			c.mark(r)
		}
	}
}

// share writes the claims of rooms, side by side, a few at a time: a
// room whose claim is slow to store holds up only its own. A room whose
// claim failed is tried again at the next heartbeat.
func (c *claims) share(ctx context.Context, p store.Presence, rooms []*room.Room, limit time.Duration, leaving bool) {
	parent := ctx
	if leaving { // ctx is over, but the goodbye is worth a moment
		parent, limit = context.Background(), 2*time.Second
	}
	round, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	var wg sync.WaitGroup
	slots := make(chan struct{}, presenceWorkers)
	for _, r := range rooms {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			if !r.SharePresence(round, p, leaving) && !leaving {
				c.mark(r)
			}
		})
	}
	wg.Wait()
}
