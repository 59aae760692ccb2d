package lobby

import (
	"cmp"
	"context"
	"sync/atomic"
	"time"
)

// DefaultExpiryLease is how long the expiry lease outlives its holder's
// last renewal (Config.ExpiryLease).
const DefaultExpiryLease = 30 * time.Second

// expiryEvery is how often the holder of the expiry lease runs the
// expiry passes.
const expiryEvery = time.Minute

// expiryLeaseName names the expiry lease in the store (store.Leases).
const expiryLeaseName = "expiry"

// expiryLease is whether this instance holds the expiry lease.
type expiryLease struct{ held atomic.Bool }

// HoldsExpiry reports whether this instance holds the expiry lease, and
// so runs the expiry passes: always with a store of its own.
func (l *Lobby) HoldsExpiry() bool { return l.cluster == nil || l.expiry.held.Load() }

// expireWhileHeld runs the expiry passes (rooms, then profiles) every
// expiryEvery while this instance holds the expiry lease, and at once
// on taking it, since when the last holder's last pass ran is not known.
// With a shared store only one instance at a time holds it, so the
// passes' reads are made once for the service, not once per instance.
// It returns when ctx ends, after the lease is released.
func (l *Lobby) expireWhileHeld(ctx context.Context) {
	taken := make(chan struct{}, 1)
	if l.cluster == nil {
		taken <- struct{}{}
	} else {
		leased := make(chan struct{})
		go func() {
			defer close(leased)
			l.holdExpiryLease(ctx, taken)
		}()
		defer func() { <-leased }()
	}
	tick := time.NewTicker(expiryEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-taken:
		case <-tick.C:
			if !l.HoldsExpiry() {
				continue
			}
		}
		l.ExpireRooms(ctx)
		l.expireProfilesEvery(ctx)
	}
}

// holdExpiryLease takes or renews the expiry lease every third of its
// ttl until ctx ends, telling taken when this instance comes to hold
// it, and then releases it, so another instance takes over at its next
// try rather than a ttl later. A renewal that fails counts as the lease
// lost: the store cannot be reached to expire anything anyway, and the
// instance that can will take the lease once it lapses.
func (l *Lobby) holdExpiryLease(ctx context.Context, taken chan<- struct{}) {
	ttl := cmp.Or(l.cfg.ExpiryLease, DefaultExpiryLease)
	every := ttl / 3
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		round, cancel := context.WithTimeout(ctx, every)
		held, err := l.cluster.Lease(round, expiryLeaseName, ttl)
		cancel()
		if err != nil && ctx.Err() == nil {
			l.storeFault("expiry lease", err)
		}
		if ctx.Err() != nil { // leaving: what is held is released below
		} else if was := l.expiry.held.Swap(held); held && !was {
			l.cfg.Logger.Info("expiry lease taken: this instance expires rooms and profiles", "ttl", ttl)
			select {
			case taken <- struct{}{}:
			default:
			}
		} else if was && !held {
			l.cfg.Logger.Info("expiry lease lost", "ttl", ttl)
		}
		select {
		case <-ctx.Done():
			if l.expiry.held.Swap(false) {
				bye, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
				if err := l.cluster.Release(bye, expiryLeaseName); err != nil {
					l.storeFault("release expiry lease", err)
				}
				cancel()
			}
			return
		case <-tick.C:
		}
	}
}

// ExpireRooms deletes unfinished rooms untouched for longer than the
// configured expiry that nobody here is connected to.
func (l *Lobby) ExpireRooms(ctx context.Context) {
	if l.cfg.Expire <= 0 {
		return
	}
	metas, err := l.cfg.Store.List(ctx)
	if err != nil {
		l.storeFault("expire rooms", err)
		return
	}
	cutoff := l.cfg.Now().Add(-l.cfg.Expire)
	for _, m := range metas {
		if m.Over || !m.Updated.Before(cutoff) || l.heldElsewhere(ctx, m.Code) {
			continue
		}
		r, dropped := l.dropIdle(m.Code)
		if !dropped {
			continue
		}
		if r != nil && l.cluster != nil {
			l.cluster.Unfollow(m.Code)
		}
		if err := l.cfg.Store.Delete(ctx, m.Code); err != nil {
			l.storeFault("expire room", err, "code", m.Code)
			continue
		}
		l.deleteChat(ctx, m.Code)
		l.cfg.Logger.Info("room expired", "code", m.Code, "idle", l.cfg.Now().Sub(m.Updated).Round(time.Second))
		l.roomsChanged()
	}
}

// heldElsewhere reports whether a session on another instance holds a seat
// in room code, as a quiet table still in use must not expire. When the
// store cannot say, the room is kept: expiry can wait a minute.
func (l *Lobby) heldElsewhere(ctx context.Context, code string) bool {
	if l.cluster == nil {
		return false
	}
	p, err := l.cluster.SeatPresence(ctx, code, l.cfg.Now())
	return err != nil || len(p.Elsewhere) > 0
}
