package proxyproto

import (
	"bufio"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// Listener accepts connections that start with a PROXY header and reports
// the client named there as their RemoteAddr.
//
// Once enabled, a header is required: a connection without one is
// refused, since anyone able to reach the port directly could otherwise
// claim any address. Point only the balancer at this port, or list its
// addresses in Trusted.
type Listener struct {
	net.Listener
	// Timeout bounds the wait for the header, so a client that connects
	// and sends nothing cannot hold a connection open; 0 means 5 seconds.
	Timeout time.Duration
	// Trusted, when not empty, lists the balancers: headers are required
	// from them, and connections from anywhere else are refused.
	Trusted []netip.Prefix
}

// Accept waits for the next connection. The header is read lazily, on the
// connection's first Read or RemoteAddr, so one slow client never holds up
// Accept for the others.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if !l.trusted(c.RemoteAddr()) {
			c.Close()
			continue
		}
		timeout := l.Timeout
		if timeout <= 0 {
			timeout = 5 * time.Second
		}
		return &Conn{Conn: c, r: bufio.NewReader(c), timeout: timeout}, nil
	}
}

func (l *Listener) trusted(a net.Addr) bool {
	if len(l.Trusted) == 0 {
		return true
	}
	ap := addrPort(a)
	for _, p := range l.Trusted {
		if p.Contains(ap.Addr().Unmap()) {
			return true
		}
	}
	return false
}

// Conn is a connection whose first bytes were a PROXY header.
type Conn struct {
	net.Conn
	r       *bufio.Reader
	timeout time.Duration
	once    sync.Once
	header  Header
	err     error
}

func (c *Conn) readHeader() {
	c.once.Do(func() {
		_ = c.Conn.SetReadDeadline(time.Now().Add(c.timeout))
		c.header, c.err = Read(c.r)
		_ = c.Conn.SetReadDeadline(time.Time{})
		if c.err != nil {
			c.err = fmt.Errorf("from %s: %w", c.Conn.RemoteAddr(), c.err)
			c.Conn.Close()
		}
	})
}

// Header returns the connection's PROXY header, reading it if need be.
func (c *Conn) Header() (Header, error) {
	c.readHeader()
	return c.header, c.err
}

// Read reads the client's bytes that follow the header.
func (c *Conn) Read(b []byte) (int, error) {
	c.readHeader()
	if c.err != nil {
		return 0, c.err
	}
	return c.r.Read(b)
}

// RemoteAddr is the client named by the header, or the peer's address for
// LOCAL connections and when the header is missing or bad.
func (c *Conn) RemoteAddr() net.Addr {
	c.readHeader()
	if c.err == nil && c.header.Source.IsValid() {
		return net.TCPAddrFromAddrPort(c.header.Source)
	}
	return c.Conn.RemoteAddr()
}
