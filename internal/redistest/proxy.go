package redistest

import (
	"net"
	"sync"
	"testing"
)

// Proxy forwards TCP connections from a loopback port of its own to a
// server, and can make the network between them misbehave: drop every
// connection (Cut), or stop passing bytes while holding the connections
// open (Stall), as a partition would.
type Proxy struct {
	// Addr is where to connect instead of the server.
	Addr string

	to string
	l  net.Listener

	mu      sync.Mutex
	conns   map[net.Conn]bool
	stalled bool
	moving  *sync.Cond // broadcast when stalled clears
}

// StartProxy forwards to addr until the test ends.
func StartProxy(t testing.TB, addr string) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: l.Addr().String(), to: addr, l: l, conns: map[net.Conn]bool{}}
	p.moving = sync.NewCond(&p.mu)
	go p.accept()
	t.Cleanup(func() { l.Close(); p.Cut() })
	return p
}

func (p *Proxy) accept() {
	for {
		in, err := p.l.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.to)
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = true, true
		p.mu.Unlock()
		go p.pipe(out, in)
		go p.pipe(in, out)
	}
}

// pipe copies from src to dst until either closes, holding what it read
// while the proxy is stalled: after a Cut the write fails, and what was
// held is lost.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer p.drop(dst, src)
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.await()
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// await waits while the proxy is stalled.
func (p *Proxy) await() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.stalled {
		p.moving.Wait()
	}
}

func (p *Proxy) drop(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Cut closes every connection through the proxy, dropping whatever it
// held; new connections get through.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
	p.stalled = false
	p.moving.Broadcast()
}

// Stall stops passing bytes until Cut: connections stay open and what
// the two sides send is held, then lost when they are cut.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = true
}
