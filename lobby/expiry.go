package lobby

import (
	"cmp"
	"context"
	"sync/atomic"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
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
// passes' reads are made once for the service, not once per instance;
// an instance configured to expire neither rooms nor profiles never
// asks for it.
// It returns when ctx ends, after the lease is released.
func (l *Lobby) expireWhileHeld(ctx context.Context) {
	if l.cfg.Expire <= 0 && l.cfg.ProfileExpire <= 0 {
		// An instance that expires nothing must not take the lease:
		// holding it, it would keep the instances that do from expiring.
		<-ctx.Done()
		return
	}
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

// expiryBatch is how many due rooms a pass takes up at a time, and
// expiryBatches how many times at most: rooms due past that wait for
// the next pass.
const (
	expiryBatch   = 256
	expiryBatches = 8
)

// ExpireRooms deletes unfinished rooms untouched for longer than the
// configured expiry that nobody is connected to. It reads only the rooms
// due (store.Lists' Due, the longest untouched first), a batch at a
// time, so its reads grow with the rooms due, not the rooms stored. A
// room kept because someone sits in it stays first among the due, so
// each batch asks for those kept so far and a batch more: rooms in use
// never hide the abandoned ones behind them.
func (l *Lobby) ExpireRooms(ctx context.Context) {
	if l.cfg.Expire <= 0 {
		return
	}
	cutoff := l.cfg.Now().Add(-l.cfg.Expire)
	kept := map[string]bool{}
	for range expiryBatches {
		limit := len(kept) + expiryBatch
		due, err := l.cfg.Store.Due(ctx, cutoff, limit)
		if err != nil {
			l.storeFault("expire rooms", err)
			return
		}
		taken := 0
		for _, m := range due {
			if kept[m.Code] {
				continue
			}
			taken++
			if !l.expireRoom(ctx, m, cutoff) {
				kept[m.Code] = true
			}
		}
		if len(due) < limit || taken == 0 {
			return
		}
	}
}

// expireRoom deletes room m, due at cutoff, unless someone sits in it
// here or elsewhere, and reports whether it did.
func (l *Lobby) expireRoom(ctx context.Context, m store.Meta, cutoff time.Time) bool {
	if m.Over || !m.Updated.Before(cutoff) || l.heldElsewhere(ctx, m.Code) {
		return false
	}
	r, dropped := l.dropIdle(m.Code)
	if !dropped {
		return false
	}
	if r != nil && l.cluster != nil {
		l.cluster.Unfollow(m.Code)
	}
	if err := l.cfg.Store.Delete(ctx, m.Code); err != nil {
		l.storeFault("expire room", err, "code", m.Code)
		return false
	}
	l.deleteChat(ctx, m.Code)
	l.cfg.Logger.Info("room expired", "code", m.Code, "idle", l.cfg.Now().Sub(m.Updated).Round(time.Second))
	l.roomsChanged()
	return true
}

// heldElsewhere reports whether a session on another instance holds a seat
// in room code, as a quiet table still in use must not expire. When the
// store cannot say, the room is kept: expiry can wait a minute.
func (l *Lobby) heldElsewhere(ctx context.Context, code string) bool {
	if l.cluster == nil {
		return false
	}
	p, err := l.cluster.SeatPresence(ctx, code)
	if err != nil {
		return true
	}
	elsewhere, _ := p.Seats(l.claims.heartbeats(), l.claims.ttl)
	return len(elsewhere) > 0
}
