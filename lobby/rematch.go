package lobby

import "context"

// Rematch accepts, for p, a rematch of the finished game in the room
// invite names, offering it when nobody has yet. Bots accept at once; when
// every seat has, the new room is made, its seats bound as in this one,
// and the room info returned carries its code (as do the updates of
// everyone in this room).
func (l *Lobby) Rematch(ctx context.Context, invite string, p Player) (RoomInfo, error) {
	r, _, err := l.open(ctx, invite, "", p)
	if err != nil {
		return RoomInfo{}, err
	}
	return r.Rematch(ctx, p)
}
