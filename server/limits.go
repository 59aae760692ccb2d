package server

import (
	"context"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	"golang.org/x/time/rate"

	"github.com/smokestack/smokestack/internal/lang"
)

// Limits bound what one address, key or session may take of the server,
// so the defaults are safe on a port open to the internet. A zero field
// turns that limit off.
type Limits struct {
	// HandshakeTimeout drops a connection whose SSH handshake (key
	// exchange and authentication) has not finished in time, and one that
	// has opened no session as long after authenticating.
	HandshakeTimeout time.Duration
	// ConnsPerAddr bounds the open connections from one address (an IPv6
	// client's /64), ConnsPerKey those authenticated by one key.
	ConnsPerAddr, ConnsPerKey int
	// ConnRate bounds the new connections one address may open per
	// minute (a token bucket holding a minute's worth).
	ConnRate int
	// Sessions bounds the sessions open on this instance.
	Sessions int
	// SessionsPerConn bounds the sessions (SSH channels) open at once on
	// one connection, SessionRate the new ones one connection may open
	// per minute (a token bucket holding a minute's worth). Past either,
	// a session is refused as it opens, before anything runs or logs.
	SessionsPerConn, SessionRate int
	// RefusedSessions is how many sessions may be refused on one
	// connection (past the two limits above) before it is ended.
	RefusedSessions int
	// InputRate bounds the bytes per second a session's input is read at
	// (bursts of four seconds' worth pass at once); faster input waits.
	InputRate int
	// InputBuffer bounds the input the server holds that one session
	// has not read yet, ConnInputBuffer that of all the sessions of one
	// connection, AddrInputBuffer that of all the connections of one
	// address, InputBudget that of every session on the instance.
	// Input past any of them ends its connection (inbox.go).
	InputBuffer, ConnInputBuffer, AddrInputBuffer, InputBudget int
	// RequestRate bounds the requests (env, pty-req, window-change,
	// exec…) a second on one connection's channels, in bursts of four
	// seconds' worth; past it the connection is cut (transport.go).
	RequestRate int
	// Inactivity closes a terminal session that has had no input for
	// this long, after a warning a minute before.
	Inactivity time.Duration
	// MaxLine bounds one line of input to play.
	MaxLine int
}

// DefaultLimits are the limits `smokestack serve` starts with.
func DefaultLimits() Limits {
	return Limits{
		HandshakeTimeout: 20 * time.Second,
		ConnsPerAddr:     20,
		ConnsPerKey:      10,
		ConnRate:         60,
		Sessions:         3000,
		SessionsPerConn:  10,
		SessionRate:      60,
		RefusedSessions:  20,
		InputRate:        4096,
		InputBuffer:      64 << 10,
		ConnInputBuffer:  256 << 10,
		AddrInputBuffer:  1 << 20,
		RequestRate:      100,
		InputBudget:      32 << 20,
		Inactivity:       30 * time.Minute,
		MaxLine:          64 << 10,
	}
}

// What a client is told when it is refused, by reason: the message of
// the server's catalogue that words it. The reasons name the refusal in
// logs and in the refusals metric.
var refusalLines = map[string]string{
	"conns_per_addr":    "server.refusal.conns_per_addr",
	"conn_rate":         "server.refusal.conn_rate",
	"conns_per_key":     "server.refusal.conns_per_key",
	"sessions":          "server.refusal.sessions",
	"sessions_per_conn": "server.refusal.sessions_per_conn",
	"session_rate":      "server.refusal.session_rate",
	"refused_sessions":  "server.refusal.refused_sessions",
	"banned":            "server.refusal.banned",
}

// refusalLine words the refusal for reason in p's language. A refusal
// before a session (the connection's, its channels') knows no language
// yet, and is told in English (a nil p).
func refusalLine(p *lang.Printer, reason string) string { return p.T(refusalLines[reason]) }

// gate counts what is open per address, per key and in all, and decides
// whether one more may come in.
type gate struct {
	lim Limits

	mu       sync.Mutex
	addrs    map[string]*addrUse
	keys     map[string]int
	sessions int
	swept    time.Time
}

// addrUse is what one address holds: its open connections (refused ones
// included, until they close) and its allowance of new ones.
type addrUse struct {
	conns int
	rate  *rate.Limiter
	input budget // what its sessions were sent and have not read (inbox.go)
}

func newGate(lim Limits) *gate {
	return &gate{lim: lim, addrs: map[string]*addrUse{}, keys: map[string]int{}}
}

// addrKey is what per-address limits count by: the address, or for IPv6
// its /64, which one subscriber usually holds whole.
func addrKey(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// lookupAddr is the address the lobby counts a session's failed room
// lookups by (lobby.Player.Addr): the client's, as the per-address limits
// count it, or none when those limits are off, as behind a balancer that
// hides clients' addresses every player would share one.
func (s *Server) lookupAddr(sess ssh.Session) string {
	if lim := s.cfg.Limits; lim.ConnsPerAddr <= 0 && lim.ConnRate <= 0 {
		return ""
	}
	return clientAddr(sess)
}

// remoteAddr is the client's address, or an invalid one if it has none.
func remoteAddr(a net.Addr) netip.Addr {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.AddrPort().Addr().Unmap()
	}
	ap, _ := netip.ParseAddrPort(a.String())
	return ap.Addr().Unmap()
}

// openConn counts a new connection from addr and says whether to refuse
// it, with a reason, and whether to drop it without a word: an address
// holding twice its allowance is flooding, and telling it costs a
// handshake each time. Every openConn needs a closeConn.
func (g *gate) openConn(addr string, now time.Time) (reason string, drop bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sweep(now)
	u := g.addrs[addr]
	if u == nil {
		u = &addrUse{}
		if g.lim.ConnRate > 0 {
			u.rate = rate.NewLimiter(rate.Limit(float64(g.lim.ConnRate)/60), g.lim.ConnRate)
		}
		g.addrs[addr] = u
	}
	u.conns++
	switch {
	case g.lim.ConnsPerAddr > 0 && u.conns > 2*g.lim.ConnsPerAddr:
		return "conns_per_addr", true
	case g.lim.ConnsPerAddr > 0 && u.conns > g.lim.ConnsPerAddr:
		return "conns_per_addr", false
	case u.rate != nil && !u.rate.AllowN(now, 1):
		return "conn_rate", false
	}
	return "", false
}

// inputOf is the input budget of addr, which holds a connection open.
func (g *gate) inputOf(addr string) *budget {
	g.mu.Lock()
	defer g.mu.Unlock()
	if u := g.addrs[addr]; u != nil {
		return &u.input
	}
	return nil
}

func (g *gate) closeConn(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if u := g.addrs[addr]; u != nil {
		u.conns--
	}
}

// sweep forgets addresses with nothing open and a full allowance, once a
// minute, so the map does not grow with every address ever seen. The
// caller holds g.mu.
func (g *gate) sweep(now time.Time) {
	if now.Sub(g.swept) < time.Minute {
		return
	}
	g.swept = now
	for a, u := range g.addrs {
		if u.conns == 0 && u.input.n.Load() == 0 && (u.rate == nil || u.rate.TokensAt(now) >= float64(u.rate.Burst())) {
			delete(g.addrs, a)
		}
	}
}

// openKey counts a connection authenticated by key, unless the key holds
// its allowance already. Every true openKey needs a closeKey.
func (g *gate) openKey(key string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lim.ConnsPerKey > 0 && g.keys[key] >= g.lim.ConnsPerKey {
		return false
	}
	g.keys[key]++
	return true
}

func (g *gate) closeKey(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.keys[key]--; g.keys[key] <= 0 {
		delete(g.keys, key)
	}
}

// openSession counts a session unless the instance is full. Every true
// openSession needs a closeSession.
func (g *gate) openSession() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lim.Sessions > 0 && g.sessions >= g.lim.Sessions {
		return false
	}
	g.sessions++
	return true
}

func (g *gate) closeSession() {
	g.mu.Lock()
	g.sessions--
	g.mu.Unlock()
}

// paced reads at most InputRate bytes a second from r: a paste flood or
// a key-repeat storm waits in the session's inbox (inbox.go) instead of
// taking the server's time. slowed is called when a read has to wait.
type paced struct {
	ctx    context.Context
	r      io.Reader
	rate   *rate.Limiter
	slowed func()
}

func pace(ctx context.Context, r io.Reader, perSecond int, slowed func()) io.Reader {
	if perSecond <= 0 {
		return r
	}
	return &paced{ctx: ctx, r: r, rate: rate.NewLimiter(rate.Limit(perSecond), 4*perSecond), slowed: slowed}
}

func (p *paced) Read(b []byte) (int, error) {
	if len(b) > p.rate.Burst() {
		b = b[:p.rate.Burst()]
	}
	n, err := p.r.Read(b)
	if n > 0 {
		r := p.rate.ReserveN(time.Now(), n)
		if d := r.Delay(); d > 0 {
			p.slowed()
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-p.ctx.Done():
				t.Stop()
			}
		}
	}
	return n, err
}

// input is the session's input, paced to Limits.InputRate, noting each
// read as activity.
func (s *Server) input(ctx context.Context, c *call) io.Reader {
	var once sync.Once
	slowed := func() {
		once.Do(func() { s.refuse("input_rate", "key", c.player.Key, "remote", c.sess.RemoteAddr().String()) })
	}
	return activity{pace(ctx, c.sess, s.cfg.Limits.InputRate, slowed), c.live}
}

// activity notes when the client last sent input.
type activity struct {
	r    io.Reader
	live *liveSession
}

func (a activity) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.live.touch()
	}
	return n, err
}
