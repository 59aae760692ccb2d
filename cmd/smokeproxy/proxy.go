package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pires/go-proxyproto"
)

// Proxy forwards each accepted connection to one of Backends.
type Proxy struct {
	Backends []string
	// SendProxy is "v1" or "v2" to put a PROXY header before the client's
	// bytes, "" for none.
	SendProxy   string
	DialTimeout time.Duration
	Log         *slog.Logger

	next atomic.Uint64
}

func (p *Proxy) check() error {
	if len(p.Backends) == 0 {
		return errors.New("no --backends given")
	}
	switch p.SendProxy {
	case "", "v1", "v2":
		return nil
	}
	return fmt.Errorf("--send-proxy %q: want v1, v2 or nothing", p.SendProxy)
}

// Serve accepts on l until ctx ends, then closes l and waits for the open
// connections to end.
func (p *Proxy) Serve(ctx context.Context, l net.Listener) error {
	if err := p.check(); err != nil {
		return err
	}
	if p.Log == nil {
		p.Log = slog.New(slog.DiscardHandler)
	}
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.forward(ctx, c)
		}()
	}
}

// forward pipes c to the next backend that answers, starting after the
// one the previous connection got, so load spreads and a dead instance is
// skipped: its players reconnect and land on a live one.
func (p *Proxy) forward(ctx context.Context, c net.Conn) {
	defer c.Close()
	start := p.next.Add(1)
	var up net.Conn
	for i := range len(p.Backends) {
		addr := p.Backends[(start+uint64(i))%uint64(len(p.Backends))]
		d := net.Dialer{Timeout: p.DialTimeout}
		var err error
		if up, err = d.DialContext(ctx, "tcp", addr); err == nil {
			break
		}
		p.Log.Warn("backend unavailable", "backend", addr, "err", err)
	}
	if up == nil {
		p.Log.Error("no backend answered", "client", c.RemoteAddr().String())
		return
	}
	defer up.Close()
	if p.SendProxy != "" {
		version := byte(2)
		if p.SendProxy == "v1" {
			version = 1
		}
		h := proxyproto.HeaderProxyFromAddrs(version, c.RemoteAddr(), c.LocalAddr())
		if _, err := h.WriteTo(up); err != nil {
			return
		}
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		io.Copy(dst, src)
		// Pass the half-close on, so each side sees the other finish.
		if tc, ok := dst.(*net.TCPConn); ok {
			tc.CloseWrite()
		} else {
			dst.Close()
		}
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	select {
	case <-done:
		<-done
	case <-ctx.Done():
	}
}
