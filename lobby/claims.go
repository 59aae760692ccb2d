package lobby

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// DefaultPresenceTTL is how long a claim on seats lasts unless renewed.
// Renewing every third of it lets a claim survive two missed renewals (a
// slow Redis, a long GC pause) before other instances show its seats away.
const DefaultPresenceTTL = 15 * time.Second

// presenceWorkers is how many rooms share their presence at once.
const presenceWorkers = 8

// claims shares with the other instances which seats the sessions here
// hold: the rooms whose seats held here changed, and the loop that writes
// their claims and renews every room's. It is made with what it needs and
// nothing of the Lobby.
type claims struct {
	// ttl is how long the others believe a claim without hearing again.
	ttl time.Duration
	// loadedRooms lists the rooms loaded here (access).
	loadedRooms func() []*room.Room
	kick        chan struct{}
	mu          sync.Mutex
	due         map[*room.Room]bool // rooms whose seats held here changed
}

func newClaims(ttl time.Duration) *claims {
	if ttl <= 0 {
		ttl = DefaultPresenceTTL
	}
	return &claims{ttl: ttl, kick: make(chan struct{}, 1), due: map[*room.Room]bool{}}
}

// kickPresence asks the presence loop to share r's change soon. It never
// blocks: a pending kick covers every change made before it is taken.
func (c *claims) kickPresence(r *room.Room) {
	c.mu.Lock()
	c.due[r] = true
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// takeDue returns the rooms whose presence changed since the last call.
func (c *claims) takeDue() []*room.Room {
	c.mu.Lock()
	defer c.mu.Unlock()
	rooms := slices.Collect(maps.Keys(c.due))
	clear(c.due)
	return rooms
}

// sharePresence keeps this instance's claims current until ctx ends: at
// once after a local change, and for every room with sessions here each
// renewal interval, which also reads what the other instances claim, so a
// lapsed claim shows as away within one interval of lapsing. When ctx ends
// it withdraws every claim, so a clean shutdown shows its players away at
// once rather than after the TTL. A store that cannot be reached only
// leaves the presence stale; moves never wait for it.
func (c *claims) sharePresence(ctx context.Context, p store.Presence) {
	every := c.ttl / 3
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		var rooms []*room.Room
		all, leaving := false, false
		select {
		case <-ctx.Done():
			leaving = true
		case <-c.kick:
			rooms = c.takeDue()
		case <-tick.C:
			all = true
		}
		if all || leaving {
			rooms = c.loadedRooms()
		}
		parent, limit := ctx, every
		if leaving { // ctx is over, but the goodbye is worth a moment
			parent, limit = context.Background(), 2*time.Second
		}
		round, cancel := context.WithTimeout(parent, limit)
		// Rooms share side by side, a few at a time: a room whose claim
		// is slow to store holds up only its own.
		var wg sync.WaitGroup
		slots := make(chan struct{}, presenceWorkers)
		for _, r := range rooms {
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				r.SharePresence(round, p, all, leaving)
			})
		}
		wg.Wait()
		cancel()
		if leaving {
			return
		}
	}
}
