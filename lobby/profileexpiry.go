package lobby

import (
	"context"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// A profile is made on a key's first need (ensureProfile), but a name
// chosen or a link code asked for is a need too, and neither is playing:
// a profile that holds no seat in any room and no rating, made longer ago
// than Config.ProfileExpire, is forgotten with its keys and its name, so
// names reserved by nobody who plays come free again. Profiles made
// before profiles were lazy, one for every key that ever connected, go
// the same way.

// profileSweep is how often the lobby looks for profiles to expire: it
// reads every profile and every room.
const profileSweep = time.Hour

// expireProfilesEvery runs ExpireProfiles once a profileSweep; the lobby's
// loop calls it every minute.
func (l *Lobby) expireProfilesEvery(ctx context.Context) {
	now := l.cfg.Now()
	if now.Sub(l.profilesSwept) < profileSweep {
		return
	}
	l.profilesSwept = now
	l.ExpireProfiles(ctx)
}

// ExpireProfiles forgets the profiles that never played (above).
func (l *Lobby) ExpireProfiles(ctx context.Context) {
	ps := l.cfg.Store
	if l.cfg.ProfileExpire <= 0 {
		return
	}
	all, err := ps.Profiles(ctx)
	if err != nil {
		l.storeFault("list profiles to expire", err)
		return
	}
	cutoff := l.cfg.Now().Add(-l.cfg.ProfileExpire)
	var old []store.Profile
	for _, p := range all {
		if p.Created.Before(cutoff) {
			old = append(old, p)
		}
	}
	if len(old) == 0 {
		return
	}
	played, err := l.played(ctx)
	if err != nil {
		l.storeFault("find who played, to expire profiles", err)
		return
	}
	for _, p := range old {
		if played[p.ID] {
			continue
		}
		if err := ps.DropProfile(ctx, p.ID); err != nil {
			l.storeFault("expire profile", err, "player", p.ID)
			continue
		}
		l.cfg.Logger.Info("profile expired", "player", p.ID, "name", p.Name, "made", p.Created)
	}
}

// played is the IDs that hold a seat in a stored room, finished or not,
// or a rating in a game.
func (l *Lobby) played(ctx context.Context) (map[string]bool, error) {
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, m := range metas {
		for _, s := range m.Seats {
			if s.Player != "" {
				ids[s.Player] = true
			}
		}
	}
	for _, g := range l.cfg.Games {
		board, err := l.cfg.Store.Leaderboard(ctx, g.Name())
		if err != nil {
			return nil, err
		}
		for id := range board {
			ids[id] = true
		}
	}
	return ids, nil
}
