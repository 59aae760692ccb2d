package lobby

import (
	"context"
	"errors"
	"fmt"
)

// A lookup is a player naming a room to join, watch or replay it. A miss
// is a lookup that finds no room the player may enter: no room has the
// code, or it names a private room without its secret. The player is told
// the same in both cases, so a guess learns nothing.

// open returns the room invite names, if p may enter it.
func (l *Lobby) open(ctx context.Context, invite string, p Player) (*room, error) {
	var r *room
	err := l.lookup(ctx, invite, p, func(code string) (Meta, error) {
		var err error
		if r, err = l.room(ctx, code); err != nil {
			return Meta{}, err
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.meta, nil
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// lookup checks that p may enter the room invite names, which find reads
// by its code (ErrNotFound when there is none).
func (l *Lobby) lookup(ctx context.Context, invite string, p Player, find func(code string) (Meta, error)) error {
	code, secret, ok := ParseInvite(invite)
	if !ok {
		return fmt.Errorf("%.*q is not a room code: a code has %d letters and digits, a private room's invite %d",
			CodeLength+SecretLength, NormalizeCode(invite), CodeLength, CodeLength+SecretLength)
	}
	m, err := find(code)
	if errors.Is(err, ErrNotFound) {
		return noRoom(code)
	}
	if err != nil {
		return err
	}
	if admitted, _ := m.admits(p, secret); !admitted {
		return noRoom(code)
	}
	return nil
}

// noRoom is what a miss says, whichever kind it is.
func noRoom(code string) error {
	return fmt.Errorf("no room %q: check the code (a private room needs its whole invite, CODE-SECRET)", code)
}
