package lobby

import (
	"context"
	"time"
)

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

// ExpireProfiles forgets the profiles made longer ago than
// Config.ProfileExpire that never played (players.Expire).
func (l *Lobby) ExpireProfiles(ctx context.Context) {
	if l.cfg.ProfileExpire <= 0 {
		return
	}
	l.players.Expire(ctx, l.cfg.Now().Add(-l.cfg.ProfileExpire), l.gameNames(), l.seated)
}

// seated is the IDs that hold a seat in a stored room, finished or not.
func (l *Lobby) seated(ctx context.Context) (map[string]bool, error) {
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
	return ids, nil
}
