// Command smokeproxy is a tiny TCP load balancer for running several
// smokestack instances on one machine without Docker or HAProxy (see
// deploy/local-cluster.sh). It spreads connections over the backends in
// turn, skips backends that refuse, and can announce each client's address
// with the PROXY protocol as HAProxy's send-proxy does.
//
//	smokeproxy --listen :2222 --backends 127.0.0.1:2301,127.0.0.1:2302 --send-proxy v2
//
// It is for development and small boxes; production should use HAProxy
// (deploy/haproxy.cfg) or a cloud TCP balancer.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	fs := flag.NewFlagSet("smokeproxy", flag.ExitOnError)
	listen := fs.String("listen", ":2222", "address to accept players on")
	backends := fs.String("backends", "", "comma-separated smokestack addresses (host:port)")
	sendProxy := fs.String("send-proxy", "", "send a PROXY protocol header to backends: v1, v2, or empty for none")
	dialTimeout := fs.Duration("dial-timeout", 2*time.Second, "give up on a backend after this long")
	fs.Parse(os.Args[1:])

	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	p := &Proxy{Backends: splitList(*backends), SendProxy: *sendProxy, DialTimeout: *dialTimeout, Log: log}
	if err := p.check(); err != nil {
		fmt.Fprintln(os.Stderr, "smokeproxy:", err)
		os.Exit(2)
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "smokeproxy:", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Info("smokeproxy listening", "addr", l.Addr().String(), "backends", p.Backends, "send-proxy", p.SendProxy)
	if err := p.Serve(ctx, l); err != nil {
		fmt.Fprintln(os.Stderr, "smokeproxy:", err)
		os.Exit(1)
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
