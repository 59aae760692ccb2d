package lobby

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// listing is what room lists show: the public rooms (Rooms, shared by
// the screens asking at about the same time in publicRooms), a player's
// games (History, their finished ones kept in playerGames), and the feed telling the lobby screens that a list may have
// changed (feed.go). Each read is a page of the store's lists
// (store.Lists), so it costs the same however many rooms are stored. It
// is made with what it reads and nothing of the Lobby.
type listing struct {
	store interface {
		OpenSeats(ctx context.Context, limit int) ([]store.Meta, error)
		InPlay(ctx context.Context, limit int) ([]store.Meta, error)
		PlayerRooms(ctx context.Context, player string, limit int) ([]store.Meta, error)
	}
	now func() time.Time
	// live is a room loaded here, as its sessions see it.
	live func(code string) (RoomInfo, bool)
	// shared says other instances share the store; started is when this
	// lobby began serving (see room.awaySince).
	shared      bool
	started     time.Time
	unavailable func(what string, err error, attrs ...any) error

	public publicRooms
	games  playerGames
	feed   roomFeed
}

// The lists' pages: what a lobby screen shows, and what one read costs.
const (
	// publicPage is the most rooms each public list shows: the open
	// seats, the most recently changed first, and the games in play,
	// the most recently started first.
	publicPage = 50
	// historyPage is the most games a player's list shows: the
	// unfinished ones first, then the most recently finished.
	historyPage = 30
)

// Rooms lists the public rooms that are not finished, most recently
// played first: a page of those with a free seat and one of the games
// in play.
func (li *listing) Rooms(ctx context.Context) ([]RoomInfo, error) {
	open, err := li.store.OpenSeats(ctx, publicPage)
	if err != nil {
		return nil, li.unavailable("list rooms", err)
	}
	play, err := li.store.InPlay(ctx, publicPage)
	if err != nil {
		return nil, li.unavailable("list rooms", err)
	}
	return li.infos(append(open, play...)), nil
}

// OpenSeats lists a page of the public rooms with a free seat, whose
// game is still to start, most recently played first.
func (li *listing) OpenSeats(ctx context.Context) ([]RoomInfo, error) {
	open, err := li.store.OpenSeats(ctx, publicPage)
	if err != nil {
		return nil, li.unavailable("list rooms", err)
	}
	return li.infos(open), nil
}

// InPlay lists a page of the public games in play, most recently
// played first.
func (li *listing) InPlay(ctx context.Context) ([]RoomInfo, error) {
	play, err := li.store.InPlay(ctx, publicPage)
	if err != nil {
		return nil, li.unavailable("list rooms", err)
	}
	return li.infos(play), nil
}

// infos describes the rooms metas, as sessions here see those loaded
// here, most recently played first.
func (li *listing) infos(metas []store.Meta) []RoomInfo {
	out := make([]RoomInfo, 0, len(metas))
	for _, m := range metas {
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
	return out
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
