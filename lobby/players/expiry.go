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
// hold no rating in any of games and no seat in a stored room (seated
// asks the lobby's rooms of one player, only for the profiles old
// enough and unrated, so the pass reads no room for anyone else).
func (ps *Players) Expire(ctx context.Context, cutoff time.Time, games []string, seated func(ctx context.Context, id string) (bool, error)) {
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
	rated, err := ps.rated(ctx, old, games)
	if err != nil {
		ps.cfg.Fault("find who played, to expire profiles", err)
		return
	}
	for _, p := range old {
		if rated[p.ID] {
			continue
		}
		sits, err := seated(ctx, p.ID)
		if err != nil {
			ps.cfg.Fault("find who played, to expire profiles", err, "player", p.ID)
			continue
		}
		if sits {
			continue
		}
		if err := ps.cfg.Store.DropProfile(ctx, p.ID); err != nil {
			ps.cfg.Fault("expire profile", err, "player", p.ID)
			continue
		}
		ps.cfg.Logger.Info("profile expired", "player", p.ID, "name", p.Name, "made", p.Created)
	}
}

// rated is the IDs of profiles that hold a rating in one of games: their
// own ratings asked, never a whole leaderboard.
func (ps *Players) rated(ctx context.Context, profiles []store.Profile, games []string) (map[string]bool, error) {
	ids := map[string]bool{}
	of := make([]string, len(profiles))
	for i, p := range profiles {
		of[i] = p.ID
	}
	for _, g := range games {
		rated, err := ps.cfg.Store.Ratings(ctx, g, of)
		if err != nil {
			return nil, err
		}
		for id := range rated {
			ids[id] = true
		}
	}
	return ids, nil
}
