package server

import (
	"fmt"
	"net"
	"time"

	"github.com/pires/go-proxyproto"
)

// ProxyListener wraps l for a server behind a TCP load balancer that puts a
// PROXY protocol (v1 or v2) header before each connection's bytes, so that
// limits, bans and logs see the player's address rather than the
// balancer's. A header is required: without one the connection fails, as
// anyone reaching the port directly could otherwise claim any address.
// When trusted lists addresses or CIDR ranges (the balancers), connections
// from anywhere else are dropped at once. timeout bounds the wait for the
// header (0: the handshake deadline applies alone).
func ProxyListener(l net.Listener, trusted []string, timeout time.Duration) (net.Listener, error) {
	pl := &proxyproto.Listener{Listener: l, ReadHeaderTimeout: timeout}
	if timeout <= 0 {
		pl.ReadHeaderTimeout = -1 // the handshake deadline closes the connection
	}
	if len(trusted) > 0 {
		policy, err := proxyproto.TrustProxyHeaderFromRanges(trusted)
		if err != nil {
			return nil, fmt.Errorf("trusted balancers: %w", err)
		}
		pl.ConnPolicy = policy
	}
	return pl, nil
}
