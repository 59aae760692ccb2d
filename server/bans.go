package server

import (
	"context"
	"net/netip"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// banCache is the bans in force, read from the store at most every
// banRefresh, so a flood of connections does not become a flood of store
// reads; a ban set here takes effect at once, one set on another instance
// within banRefresh.
type banCache struct {
	lobby *lobby.Lobby
	fail  func(error)

	mu   sync.Mutex
	list []store.Ban
	read time.Time
}

const banRefresh = 5 * time.Second

// covers reports whether a ban in force covers key or addr.
func (b *banCache) covers(ctx context.Context, key string, addr netip.Addr) bool {
	now := time.Now()
	for _, ban := range b.current(ctx, now) {
		if ban.Active(now) && ban.Covers(key, addr) {
			return true
		}
	}
	return false
}

func (b *banCache) current(ctx context.Context, now time.Time) []store.Ban {
	b.mu.Lock()
	list, fresh := b.list, now.Sub(b.read) < banRefresh
	if !fresh {
		b.read = now // one reader at a time; the others use what there is
	}
	b.mu.Unlock()
	if fresh {
		return list
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	bans, err := b.lobby.Bans(ctx, now)
	if err != nil {
		b.fail(err)
		return list
	}
	b.mu.Lock()
	b.list = bans
	b.mu.Unlock()
	return bans
}

// forget makes the next check read the store.
func (b *banCache) forget() {
	b.mu.Lock()
	b.read = time.Time{}
	b.mu.Unlock()
}
