package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/smokestack/smokestack/lobby/store"
)

// RunLeases holds two instances' leases, a and b on one store, to the
// contract: one holder at a time, renewed by its holder only, free again
// a ttl after its last renewal or at once when released.
func RunLeases(t *testing.T, a, b store.Leases) {
	t.Run("one holder", func(t *testing.T) { leaseOneHolder(t, a, b) })
	t.Run("lapse", func(t *testing.T) { leaseLapse(t, a, b) })
	t.Run("release", func(t *testing.T) { leaseRelease(t, a, b) })
}

// leaseName is a lease no other test uses.
func leaseName() string { return "test-" + newCode() }

func mustLease(t *testing.T, l store.Leases, name string, ttl time.Duration, want bool, who string) {
	t.Helper()
	held, err := l.Lease(context.Background(), name, ttl)
	if err != nil {
		t.Fatal(err)
	}
	if held != want {
		t.Fatalf("%s asks for lease %s: held %v, want %v", who, name, held, want)
	}
}

// leaseOneHolder: the first to ask takes the lease; the other is refused
// while the holder renews it; another name is a lease of its own.
func leaseOneHolder(t *testing.T, a, b store.Leases) {
	name, other := leaseName(), leaseName()
	mustLease(t, a, name, time.Minute, true, "a, first")
	mustLease(t, b, name, time.Minute, false, "b, while a holds it")
	mustLease(t, a, name, time.Minute, true, "a, renewing")
	mustLease(t, b, name, time.Minute, false, "b, after a renewed")
	mustLease(t, b, other, time.Minute, true, "b, another lease")
	mustLease(t, a, other, time.Minute, false, "a, b's other lease")
}

// leaseLapse: a holder that stops renewing loses the lease once its ttl
// has passed; the other takes it, and the old holder, asking again, is
// refused rather than renewing what is no longer its own.
func leaseLapse(t *testing.T, a, b store.Leases) {
	name := leaseName()
	const ttl = 100 * time.Millisecond
	start := time.Now()
	mustLease(t, a, name, ttl, true, "a, first")
	for {
		held, err := b.Lease(context.Background(), name, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("b could not take a lease that lapsed %v ago", time.Since(start)-ttl)
		}
		time.Sleep(ttl / 4) // waiting out the lease's ttl
	}
	if since := time.Since(start); since < ttl {
		t.Fatalf("b took a's lease %v after a took it for %v", since, ttl)
	}
	mustLease(t, a, name, ttl, false, "a, after its lease lapsed and b took it")
	mustLease(t, b, name, time.Minute, true, "b, renewing")
}

// leaseRelease: a released lease is free at once; releasing another's
// lease, or one nobody holds, does nothing.
func leaseRelease(t *testing.T, a, b store.Leases) {
	ctx := context.Background()
	name := leaseName()
	if err := a.Release(ctx, name); err != nil {
		t.Fatalf("releasing a lease nobody holds: %v", err)
	}
	mustLease(t, a, name, time.Minute, true, "a, first")
	if err := b.Release(ctx, name); err != nil {
		t.Fatal(err)
	}
	mustLease(t, b, name, time.Minute, false, "b, after releasing a's lease")
	mustLease(t, a, name, time.Minute, true, "a, after b released its lease")
	if err := a.Release(ctx, name); err != nil {
		t.Fatal(err)
	}
	mustLease(t, b, name, time.Minute, true, "b, after a released")
	mustLease(t, a, name, time.Minute, false, "a, after b took it")
}
