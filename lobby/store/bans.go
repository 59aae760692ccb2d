package store

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"
)

// Ban keeps a key or an address off the server. Bans live in the room
// store, so every instance sharing the store honours them.
type Ban struct {
	// Target is a key fingerprint ("SHA256:…"), an address ("203.0.113.7")
	// or a range of addresses ("203.0.113.0/24").
	Target string `json:"target"`
	// Until is when the ban lapses; zero means when it is lifted.
	Until time.Time `json:"until,omitzero"`
	// By names the operator who set it, by name and key.
	By string    `json:"by"`
	At time.Time `json:"at"`
}

// Active reports whether the ban is in force at now.
func (b Ban) Active(now time.Time) bool { return b.Until.IsZero() || now.Before(b.Until) }

// Covers reports whether the ban is on the key with fingerprint key or on
// the address addr (either may be empty or invalid).
func (b Ban) Covers(key string, addr netip.Addr) bool {
	if key != "" && b.Target == key {
		return true
	}
	if !addr.IsValid() {
		return false
	}
	if p, err := netip.ParsePrefix(b.Target); err == nil {
		return p.Contains(addr.Unmap())
	}
	a, err := netip.ParseAddr(b.Target)
	return err == nil && a.Unmap() == addr.Unmap()
}

// BanTarget checks a target an operator typed and returns it in the form
// bans store: a key fingerprint as given, an address or range in canonical
// form.
func BanTarget(s string) (string, error) {
	switch {
	case strings.HasPrefix(s, "SHA256:") && len(s) > len("SHA256:"):
		return s, nil
	case strings.Contains(s, "/"):
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return "", fmt.Errorf("%q is not an address range: %w", s, err)
		}
		return p.Masked().String(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return "", fmt.Errorf("%q is neither a key fingerprint (SHA256:…) nor an address", s)
	}
	return a.Unmap().String(), nil
}

// Bans keeps bans. Every driver implements it.
type Bans interface {
	// Ban stores b, replacing any ban on the same target.
	Ban(ctx context.Context, b Ban) error
	// Unban lifts the ban on target; false if there was none.
	Unban(ctx context.Context, target string) (bool, error)
	// Bans returns the bans in force at now, oldest first; lapsed ones
	// are forgotten.
	Bans(ctx context.Context, now time.Time) ([]Ban, error)
}

// InForce sorts bans oldest first and keeps those in force at now, as
// Bans.Bans answers.
func InForce(bans []Ban, now time.Time) []Ban {
	bans = slices.DeleteFunc(bans, func(b Ban) bool { return !b.Active(now) })
	slices.SortFunc(bans, func(a, b Ban) int { return a.At.Compare(b.At) })
	return bans
}
