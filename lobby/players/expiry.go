package players

import (
	"context"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// A profile is made on a key's first need (Ensure), but a name chosen or
// a link code asked for is a need too, and neither is playing: a profile
// that holds no seat in any room and no rating, made before the cutoff
// (the lobby's Config.ProfileExpire), is forgotten with its keys and its
// name, so names reserved by nobody who plays come free again. Profiles
// made before profiles were lazy, one for every key that ever connected,
// go the same way.

// Expire forgets the profiles made before cutoff that never played: that
// hold no seat in a stored room (seated lists those who do, from the
// lobby's rooms) and no rating in any of games.
func (ps *Players) Expire(ctx context.Context, cutoff time.Time, games []string, seated func(context.Context) (map[string]bool, error)) {
	all, err := ps.cfg.Store.Profiles(ctx)
	if err != nil {
		ps.cfg.Fault("list profiles to expire", err)
		return
	}
	var old []store.Profile
	for _, p := range all {
		if p.Created.Before(cutoff) {
			old = append(old, p)
		}
	}
	if len(old) == 0 {
		return
	}
	played, err := ps.played(ctx, games, seated)
	if err != nil {
		ps.cfg.Fault("find who played, to expire profiles", err)
		return
	}
	for _, p := range old {
		if played[p.ID] {
			continue
		}
		if err := ps.cfg.Store.DropProfile(ctx, p.ID); err != nil {
			ps.cfg.Fault("expire profile", err, "player", p.ID)
			continue
		}
		ps.cfg.Logger.Info("profile expired", "player", p.ID, "name", p.Name, "made", p.Created)
	}
}

// played is the IDs that hold a seat in a stored room, finished or not,
// or a rating in one of games.
func (ps *Players) played(ctx context.Context, games []string, seated func(context.Context) (map[string]bool, error)) (map[string]bool, error) {
	ids, err := seated(ctx)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		board, err := ps.cfg.Store.Leaderboard(ctx, g)
		if err != nil {
			return nil, err
		}
		for id := range board {
			ids[id] = true
		}
	}
	return ids, nil
}
