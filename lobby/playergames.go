package lobby

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// playerGames keeps, per player, the finished games their list last
// showed, so a lobby screen's refresh, once a second, reads only what
// can change: the unfinished games and the newest finished one. A
// finished room is never deleted (only unfinished ones expire) and its
// row does not change (its metadata takes only a rematch offer, which
// the lists do not show and a room loaded here shows live), so a
// player's finished games change only by a game ending, which either
// leaves the unfinished ones read last time or, begun since, ends newer
// than any finished before it. Either is seen by the small read, and
// the whole page is read again. On Redis a refresh of a player with u
// unfinished games sends u+3 commands, not a page's 32
// (TestListCostIsPage, TestHistoryFollowsOtherInstances).
type playerGames struct {
	mu sync.Mutex
	by map[string]*gamesRead
}

// gamesRead is one player's games as last read in full.
type gamesRead struct {
	open []string     // the unfinished games' codes, newest first
	done []store.Meta // the finished games, latest ended first
	read time.Time    // when the whole page was read
	used time.Time    // when last served
}

const (
	// gamesFresh bounds how long finished games are served from memory
	// without the whole page read again: the one change the small read
	// could miss is a game begun and ended between two reads whose end
	// is stamped older than the newest finished game's (instances'
	// clocks apart), and that shows within gamesFresh.
	gamesFresh = time.Minute
	// gamesKept bounds the players kept; past it those not served
	// within gamesFresh go, then any.
	gamesKept = 4096
)

// History lists the rooms where player holds a seat, most recently
// played first: the unfinished ones and the latest finished, a page in
// all. Finished games come from memory while the small read shows none
// has ended since the page was read (playerGames).
func (li *listing) History(ctx context.Context, player string) ([]RoomInfo, error) {
	now := time.Now()
	g := &li.games
	g.mu.Lock()
	last := g.by[player]
	g.mu.Unlock()
	if last != nil && now.Sub(last.read) < gamesFresh && len(last.open) < historyPage {
		// The unfinished games, and one finished if there are no more
		// unfinished ones than before.
		metas, err := li.store.PlayerRooms(ctx, player, len(last.open)+1)
		if err != nil {
			return nil, li.unavailable("list rooms", err)
		}
		open, done := splitOver(metas)
		if slices.Equal(codesOf(open), last.open) && newestSame(done, last.done) {
			g.mu.Lock()
			last.used = now
			g.mu.Unlock()
			return li.infos(append(open, last.done...)), nil
		}
	}
	metas, err := li.store.PlayerRooms(ctx, player, historyPage)
	if err != nil {
		return nil, li.unavailable("list rooms", err)
	}
	open, done := splitOver(metas)
	g.keep(player, &gamesRead{open: codesOf(open), done: slices.Clip(done), read: now, used: now})
	return li.infos(metas), nil
}

// keep files r as player's games, making room past gamesKept.
func (g *playerGames) keep(player string, r *gamesRead) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.by == nil {
		g.by = map[string]*gamesRead{}
	}
	if _, ok := g.by[player]; !ok && len(g.by) >= gamesKept {
		for p, o := range g.by {
			if r.read.Sub(o.used) >= gamesFresh {
				delete(g.by, p)
			}
		}
		for p := range g.by { // map order: any
			if len(g.by) < gamesKept {
				break
			}
			delete(g.by, p)
		}
	}
	g.by[player] = r
}

// splitOver splits metas, unfinished first as PlayerRooms reads them,
// into the unfinished and the finished.
func splitOver(metas []store.Meta) (open, done []store.Meta) {
	i := slices.IndexFunc(metas, func(m store.Meta) bool { return m.Over })
	if i < 0 {
		return metas, nil
	}
	return metas[:i], metas[i:]
}

// newestSame reports whether the newest finished game now (done, at most
// one) is the one the page read last (was).
func newestSame(done, was []store.Meta) bool {
	if len(done) == 0 || len(was) == 0 {
		return len(done) == len(was)
	}
	return done[0].Code == was[0].Code
}

func codesOf(metas []store.Meta) []string {
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Code
	}
	return out
}
