package lobby

import "crypto/subtle"

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

// admits reports whether p may join or watch the room having typed
// secret, and whether p holds a seat in it or is its host (who need no
// secret). Anyone may enter a public room by its code.
func (m Meta) admits(p Player, secret string) (admitted, own bool) {
	own = m.SeatOf(p.ID) >= 0 || p.ID != "" && p.ID == m.Host
	if own || m.Public {
		return true, own
	}
	// A private room without a secret (made before invites) admits only
	// its own players.
	return m.Secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(m.Secret)) == 1, false
}
