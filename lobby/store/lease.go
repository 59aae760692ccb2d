package store

import (
	"context"
	"time"
)

// Leases let one instance at a time do the work that is the whole
// service's rather than any one instance's, such as the expiry passes
// (lobby/expiry.go): each instance asks for the lease now and then, and
// only the one holding it does the work. A holder that stops renewing
// (it died, or lost the store) loses the lease ttl after its last
// renewal, and another instance takes it at its next try.
//
// A lease saves work; it does not guard correctness. Redis may lose a
// lease with a failover, and a holder cut off from the store still
// believes it holds the lease until its next renewal fails, so the work
// done under one must be safe done twice at once.
type Leases interface {
	// Lease takes the lease name for ttl when nobody holds it, or renews
	// it for ttl when this instance does, and reports whether this
	// instance holds it now.
	Lease(ctx context.Context, name string, ttl time.Duration) (held bool, err error)
	// Release gives the lease name up if this instance holds it, so
	// another instance takes it at its next try rather than a ttl later:
	// for a clean shutdown. It does nothing to another instance's lease.
	Release(ctx context.Context, name string) error
}
