package lobby

import (
	"context"
	"time"
)

// profileSweep is how often the lobby looks for profiles to expire: it
// reads every profile, and the rooms of those old enough and unrated.
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

// seated reports whether player id holds a seat in a stored room,
// finished or not: one read of their rooms (store.Lists' PlayerRooms),
// whatever the number of rooms stored.
func (l *Lobby) seated(ctx context.Context, id string) (bool, error) {
	rooms, err := l.cfg.Store.PlayerRooms(ctx, id, 1)
	return len(rooms) > 0, err
}
