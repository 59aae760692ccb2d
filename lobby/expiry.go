package lobby

import (
	"context"
	"time"
)

// ExpireRooms deletes unfinished rooms untouched for longer than the
// configured expiry that nobody here is connected to.
func (l *Lobby) ExpireRooms(ctx context.Context) {
	if l.cfg.Expire <= 0 {
		return
	}
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		l.storeFault("expire rooms", err)
		return
	}
	cutoff := l.cfg.Now().Add(-l.cfg.Expire)
	for _, m := range metas {
		if m.Over || !m.Updated.Before(cutoff) || l.heldElsewhere(ctx, m.Code) {
			continue
		}
		r, dropped := l.dropIdle(m.Code)
		if !dropped {
			continue
		}
		if r != nil && l.cluster != nil {
			l.cluster.Unfollow(m.Code)
		}
		if err := l.cfg.Store.Delete(ctx, m.Code); err != nil {
			l.storeFault("expire room", err, "code", m.Code)
			continue
		}
		l.deleteChat(ctx, m.Code)
		l.cfg.Logger.Info("room expired", "code", m.Code, "idle", l.cfg.Now().Sub(m.Updated).Round(time.Second))
		l.roomsChanged()
	}
}

// heldElsewhere reports whether a session on another instance holds a seat
// in room code, as a quiet table still in use must not expire. When the
// store cannot say, the room is kept: expiry can wait a minute.
func (l *Lobby) heldElsewhere(ctx context.Context, code string) bool {
	if l.cluster == nil {
		return false
	}
	p, err := l.cluster.SeatPresence(ctx, code, l.cfg.Now())
	return err != nil || len(p.Elsewhere) > 0
}
