package lobby

import (
	"context"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// Ban bans b.Target from the server, replacing any ban on it: every
// instance sharing the store honours it.
func (l *Lobby) Ban(ctx context.Context, b store.Ban) error { return l.cfg.Store.Ban(ctx, b) }

// Unban lifts the ban on target; false if there was none.
func (l *Lobby) Unban(ctx context.Context, target string) (bool, error) {
	return l.cfg.Store.Unban(ctx, target)
}

// Bans returns the bans in force at now, oldest first.
func (l *Lobby) Bans(ctx context.Context, now time.Time) ([]store.Ban, error) {
	return l.cfg.Store.Bans(ctx, now)
}
