package lobby

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// listing is what room lists show: every room in the store, read once
// for every list asking at about the same time (roomList), the public
// rooms (publicRooms), a player's history, and the feed telling the
// lobby screens that a list may have changed (feed.go). It is made with
// what it reads and nothing of the Lobby.
type listing struct {
	store interface {
		List(ctx context.Context) ([]store.Meta, error)
	}
	now func() time.Time
	// live is a room loaded here, as its sessions see it.
	live func(code string) (RoomInfo, bool)
	// shared says other instances share the store; started is when this
	// lobby began serving (see room.awaySince).
	shared      bool
	started     time.Time
	unavailable func(what string, err error, attrs ...any) error

	// reads shares one read of the list between the lists asking.
	reads  singleflight.Group
	listed roomList
	public publicRooms
	feed   roomFeed
}

// listMaxAge bounds how long a room list read from the store is shared,
// should a change elsewhere not reach this instance (a Redis pub/sub
// message is not delivered twice).
const listMaxAge = 2 * time.Second

// roomList is the store's rooms as this instance last read them, shared
// by every list until a room changes (roomsChanged) or listMaxAge passes.
// Each lobby screen reads its lists again at every change; without it a
// thousand screens would each read and decode every room in the store,
// finished ones included, once a second while games are played.
type roomList struct {
	mu    sync.Mutex
	metas []store.Meta // shared: read, never changed
	read  time.Time
	valid bool
	// gen counts changes. A read is kept only if no change came while
	// it ran, and only readers of the same gen share one: a screen told
	// of a change never gets a list read before it.
	gen uint64
}

// changed marks the list stale. It never waits: rooms call it under
// their own lock.
func (c *roomList) changed() {
	c.mu.Lock()
	c.gen++
	c.valid = false
	c.mu.Unlock()
}

// metas returns every room in the store, from the shared list while it
// is fresh; the caller must not change what it returns.
func (li *listing) metas(ctx context.Context) ([]store.Meta, error) {
	c := &li.listed
	c.mu.Lock()
	if c.valid && li.now().Sub(c.read) < listMaxAge {
		metas := c.metas
		c.mu.Unlock()
		return metas, nil
	}
	gen := c.gen
	c.mu.Unlock()
	// Room codes are capital letters and digits, so this key is no room's.
	v, err, _ := li.reads.Do("list/"+strconv.FormatUint(gen, 10), func() (any, error) {
		return li.store.List(ctx)
	})
	if err != nil {
		return nil, err
	}
	metas := v.([]store.Meta)
	c.mu.Lock()
	if c.gen == gen {
		c.metas, c.read, c.valid = metas, li.now(), true
	}
	c.mu.Unlock()
	return metas, nil
}

// Rooms lists the public rooms that are not finished, newest first.
func (li *listing) Rooms(ctx context.Context) ([]RoomInfo, error) {
	return li.list(ctx, func(m store.Meta) bool { return m.Public && !m.Over })
}

// History lists the rooms where player holds a seat, finished or not,
// most recently played first.
func (li *listing) History(ctx context.Context, player string) ([]RoomInfo, error) {
	return li.list(ctx, func(m store.Meta) bool { return m.SeatOf(player) >= 0 })
}

func (li *listing) list(ctx context.Context, keep func(store.Meta) bool) ([]RoomInfo, error) {
	metas, err := li.metas(ctx)
	if err != nil {
		return nil, li.unavailable("list rooms", err)
	}
	var out []RoomInfo
	for _, m := range metas {
		if !keep(m) {
			continue
		}
		if info, ok := li.live(m.Code); ok {
			out = append(out, info)
			continue
		}
		info := room.InfoOf(m, nil, m.Status())
		if !li.shared {
			// Not loaded since this server started, so nobody has sat
			// here since: see room.awaySince.
			for i := range info.Seats {
				if s := &info.Seats[i]; !s.Free && s.Bot == "" {
					s.AwaySince = li.started
				}
			}
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b RoomInfo) int { return cmp.Compare(b.Updated.UnixNano(), a.Updated.UnixNano()) })
	return out, nil
}

// publicRooms is the last read of the public rooms (Rooms), shared by the
// lobby screens that ask for it at about the same time: each screen reads
// the lists again at every change, and without it a thousand screens
// would each build every public room's info, once a second while games
// are played.
type publicRooms struct {
	mu   sync.Mutex
	last *publicRead // the newest read, done or under way; nil after a failed one
}

// publicRead is one read of the public rooms.
type publicRead struct {
	began time.Time     // on the monotonic clock, to compare with PublicRooms' since
	done  chan struct{} // closed once rooms and err are set
	rooms []RoomInfo
	err   error
}

// publicReadTimeout bounds a shared read, which outlives the context of
// the screen that began it.
const publicReadTimeout = 10 * time.Second

// PublicRooms is Rooms from a read begun at since or later: a screen
// told of a change at since gets the rooms as they stand after it, and
// shares that read with every screen asking meanwhile. The rooms are
// shared: the caller must not change them.
func (li *listing) PublicRooms(ctx context.Context, since time.Time) ([]RoomInfo, error) {
	p := &li.public
	p.mu.Lock()
	r := p.last
	if r == nil || r.began.Before(since) {
		r = &publicRead{began: time.Now(), done: make(chan struct{})}
		p.last = r
		p.mu.Unlock()
		li.readPublic(ctx, r)
	} else {
		p.mu.Unlock()
	}
	select {
	case <-r.done:
		return r.rooms, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readPublic reads the public rooms into r. A failed read is not kept:
// the next screen to ask tries again.
func (li *listing) readPublic(ctx context.Context, r *publicRead) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), publicReadTimeout)
	defer cancel()
	r.rooms, r.err = li.Rooms(ctx)
	close(r.done)
	if r.err != nil {
		p := &li.public
		p.mu.Lock()
		if p.last == r {
			p.last = nil
		}
		p.mu.Unlock()
	}
}
