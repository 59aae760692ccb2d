package lobby

import (
	"context"
)

// RoomStats counts the rooms loaded on this instance by state.
type RoomStats struct {
	Waiting, Playing, Over int
}

// Stats counts the rooms this instance has loaded, for metrics.
func (l *Lobby) Stats() RoomStats {
	var s RoomStats
	for _, r := range l.access.loaded() {
		switch m := r.Meta(); {
		case m.Over:
			s.Over++
		case m.Started:
			s.Playing++
		default:
			s.Waiting++
		}
	}
	return s
}

// AllRooms lists every room in the store, private and finished ones too,
// most recently played first: for operators, once in a while, as it
// reads every room.
func (l *Lobby) AllRooms(ctx context.Context) ([]RoomInfo, error) {
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		return nil, l.unavailable("list rooms", err)
	}
	return l.listing.infos(metas), nil
}

// Ping checks that the store answers: for a readiness probe.
func (l *Lobby) Ping(ctx context.Context) error {
	return l.cfg.Store.Ping(ctx)
}

// EndByOperator stops an unfinished game for good on an operator's word;
// reason is shown to its players.
func (l *Lobby) EndByOperator(ctx context.Context, code, reason string) error {
	r, err := l.room(ctx, code)
	if err != nil {
		return err
	}
	return r.End(ctx, nil, reason)
}
