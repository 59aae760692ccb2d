package lobby

import (
	"context"
	"crypto/subtle"
	"errors"

	"github.com/smokestack/smokestack/lobby/room"
	"github.com/smokestack/smokestack/lobby/store"
)

// ParseInvite reads what a player typed to name a room: a code, or a
// private room's invite (code and secret), in any case, with or without
// dashes and spaces. ok is false when it can be neither.
func ParseInvite(s string) (code, secret string, ok bool) {
	s = NormalizeCode(s)
	switch len(s) {
	case CodeLength:
		return s, "", true
	case CodeLength + SecretLength:
		return s[:CodeLength], s[CodeLength:], true
	}
	return "", "", false
}

// giveSecret gives a private room made before invites existed, which has
// no secret, one as it is loaded, so that it can be joined and watched
// with an invite like any other; its seats and host are shown the invite
// from then on. It is stored with the metadata's compare-and-set: when
// another instance gave one first, that one is taken. A store that cannot
// say leaves the room as it was, for the next load to try again.
func (a *access) giveSecret(ctx context.Context, meta store.Meta) store.Meta {
	for attempt := 0; !meta.Public && meta.Secret == "" && attempt < 3; attempt++ {
		m := meta
		m.Secret, m.Version = room.NewSecret(), meta.Version+1
		err := a.store.SaveMeta(ctx, m)
		if err == nil {
			a.env.Log.Info("private room given an invite", "code", m.Code)
			return m
		}
		if !errors.Is(err, store.ErrConflict) {
			a.env.Fault("give a room its invite", err, "code", meta.Code)
			return meta
		}
		// Only the metadata is wanted: the moves are loaded already.
		now, _, err := a.store.Load(ctx, meta.Code, meta.Moves)
		if err != nil {
			a.env.Fault("give a room its invite", err, "code", meta.Code)
			return meta
		}
		meta = now
	}
	return meta
}

// admits reports whether p may join or watch the room having typed
// secret, and whether p holds a seat in it or is its host (who need no
// secret). Anyone may enter a public room by its code.
func admits(m store.Meta, p Player, secret string) (admitted, own bool) {
	own = m.SeatOf(p.ID) >= 0 || p.ID != "" && p.ID == m.Host
	if own || m.Public {
		return true, own
	}
	// A private room without a secret (made before invites) admits only
	// its own players.
	return m.Secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(m.Secret)) == 1, false
}
