package lobby

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// room returns the live room a host's or an operator's call names by
// its code or invite: their own calls need no secret.
func (a *access) room(ctx context.Context, typed string) (*room.Room, error) {
	code, _, ok := ParseInvite(typed)
	if !ok {
		code = NormalizeCode(typed)
	}
	return a.loadRoom(ctx, code)
}

// loadRoom returns the live room for code, loading it from the store. The
// lock of the rooms is held only to look the room up and to add it: the
// load and the replay run outside it, one per code at a time, so a slow
// store or a long game delays only the joins of that room.
func (a *access) loadRoom(ctx context.Context, code string) (*room.Room, error) {
	if r := a.cached(code); r != nil {
		return r, nil
	}
	ch := a.loading.DoChan(code, func() (any, error) {
		if r := a.cached(code); r != nil {
			return r, nil
		}
		// Shared by every caller waiting for this code: not bound to the
		// first caller's context, which may end first.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
		defer cancel()
		r, err := a.load(ctx, code)
		if err != nil {
			return nil, err
		}
		a.mu.Lock()
		if old := a.rooms[code]; old != nil {
			a.mu.Unlock()
			return old, nil
		}
		a.rooms[code] = r
		a.mu.Unlock()
		if a.cluster != nil {
			// Held here from now on: hear of its changes elsewhere. The
			// store sends the code once subscribed, covering news
			// between the load and now.
			a.cluster.Follow(code)
		}
		return r, nil
	})
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.(*room.Room), nil
	}
}

// loadTimeout bounds loading a room from the store.
const loadTimeout = 10 * time.Second

func (a *access) cached(code string) *room.Room {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rooms[code]
}

// load reads a room from the store and replays its game. Nobody else
// knows the room yet: the store is read with no lock held.
func (a *access) load(ctx context.Context, code string) (*room.Room, error) {
	a.env.Pauses.Wait(ctx) // a server just restarted knows first how long it was down
	meta, moves, err := a.store.Load(ctx, code, 0)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("room %s: %w", code, err)
	}
	if err != nil {
		return nil, a.env.Unavailable("load room", err, "code", code)
	}
	meta = a.giveSecret(ctx, meta)
	g, ok := a.games[meta.Game]
	if !ok {
		return nil, room.NotOffered(code, meta.Game)
	}
	r, err := room.Open(ctx, a.env, g, meta, moves)
	if err != nil {
		a.env.Log.Error("room does not replay", "code", code, "err", err)
		return nil, room.Refuse(fmt.Sprintf("room %s cannot be opened: its game does not replay on this server", code), "lobby.noReplay",
			engine.Str("Code", code))
	}
	return r, nil
}
