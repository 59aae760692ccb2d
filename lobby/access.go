package lobby

import (
	"context"
	"maps"
	"slices"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// access is the way into rooms: the rooms loaded here (loading one from
// the store once per code at a time), and the lookups that open them by
// what a player typed, an invite or a code with a guest's seat word,
// counting and slowing the misses (lookups.go, seatword.go, invite.go).
// It is made with what it needs and nothing of the Lobby.
type access struct {
	env *room.Env
	// store loads rooms, and gives an old private room its invite.
	store interface {
		Load(ctx context.Context, code string, from int) (store.Meta, []store.Record, error)
		SaveMeta(ctx context.Context, m store.Meta) error
	}
	games  map[string]Game
	limits Limits
	// cluster is the store's part shared between instances, nil alone:
	// it hears of the rooms loaded here, and counts misses.
	cluster store.Cluster
	// localMisses counts failed lookups when no cluster does.
	localMisses missCounts

	mu    sync.Mutex
	rooms map[string]*room.Room
	// loading makes one load per room code at a time, outside mu, so a
	// slow store holds up only the joins of the room being loaded.
	loading singleflight.Group
}

// info describes room code as its sessions see it, if it is loaded here.
func (a *access) info(code string) (RoomInfo, bool) {
	r := a.cached(code)
	if r == nil {
		return RoomInfo{}, false
	}
	return r.Info(), true
}

// loaded returns every room loaded here.
func (a *access) loaded() []*room.Room {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Collect(maps.Values(a.rooms))
}

// dropIdle forgets room code unless a session here is in it; dropped
// says it was forgotten (or never loaded), r is the room if it was
// loaded.
func (a *access) dropIdle(code string) (r *room.Room, dropped bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r = a.rooms[code]
	if r != nil && r.Connected() {
		return r, false
	}
	delete(a.rooms, code)
	return r, true
}
