package server

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

type connKey struct{}

// connState is one TCP connection as the gate counts it: from before its
// handshake to its close.
type connState struct {
	net.Conn
	s    *Server
	addr netip.Addr // the client's, after any PROXY header
	// refusal, when set, is why every login on this connection is refused
	// (with its line from refusalLines shown to the client).
	refusal   string
	handshake *time.Timer // drops the connection if the handshake lingers
	closeOnce sync.Once
	// input is what the connection's sessions were sent and have not
	// read yet (inbox.go); addrInput the same for its address.
	input     budget
	addrInput *budget
	// stderr is the input its channels were sent on stderr (transport.go);
	// cut is set once it was cut for a flood.
	stderr atomic.Int64
	cut    atomic.Bool
	// lag is what the SSH transport read off the connection that the
	// server has not taken from it yet; drained is told when it falls
	// (see Read).
	lag     atomic.Int64
	takes   atomic.Int64 // how many times the server took some
	drained chan struct{}
	// deaf is closed when the server reads no more of the connection
	// (stopReading), closed when it closes.
	deaf, closed chan struct{}
	deafOnce     sync.Once
	// out holds the packets of a frame being written, for one write
	// (pty.go).
	out heldWrites

	mu  sync.Mutex
	key string // the key counted against Limits.ConnsPerKey
	// The connection's sessions (SSH channels): how many are open, the
	// allowance of new ones, how many were refused, and, once the server
	// is ending the connection, what its sessions were told.
	sessions    int
	sessionRate *rate.Limiter
	requestRate *rate.Limiter // the channels' requests (transport.go)
	refused     int
	ending      string
	// noSession drops an authenticated connection that holds no session
	// for as long as it had for its handshake, before its first session
	// and after its last: it would otherwise hold its slot until the
	// transport's idle timeout.
	noSession *time.Timer
}

// admitConn counts a new connection against its address's limits and
// bans, and starts its handshake deadline. A refused connection goes on
// to the handshake only to be told why; one from an address flooding the
// server is dropped at once.
func (s *Server) admitConn(ctx ssh.Context, c net.Conn) net.Conn {
	cs := &connState{Conn: c, s: s, drained: make(chan struct{}, 1), deaf: make(chan struct{}), closed: make(chan struct{})}
	if d := s.cfg.Limits.HandshakeTimeout; d > 0 {
		cs.handshake = time.AfterFunc(d, func() {
			c.Close()
			s.refuse("handshake_timeout", "remote", c.RemoteAddr().String())
		})
	}
	// Reading the address may wait for a PROXY header: the deadline
	// above bounds that too.
	cs.addr = remoteAddr(c.RemoteAddr())
	reason, drop := s.gate.openConn(addrKey(cs.addr), time.Now())
	if reason == "" && s.bans.covers(ctx, "", cs.addr) {
		reason = "banned"
	}
	if reason != "" {
		// Dropped and told apart: each kind is logged once per burst
		// with its own count.
		kind := reason
		if drop {
			kind += " dropped"
		}
		s.metrics.refuseAs(kind, reason, "remote", cs.addr.String(), "dropped", drop)
		s.suspects.note(reason, "", addrKey(cs.addr), time.Now())
	}
	if drop {
		cs.Close()
		return nil
	}
	cs.addrInput = s.gate.inputOf(addrKey(cs.addr))
	cs.refusal = reason
	ctx.SetValue(connKey{}, cs)
	return cs
}

// Close releases what the connection held in the gate, once.
func (cs *connState) Close() error {
	cs.closeOnce.Do(func() {
		close(cs.closed)
		if cs.handshake != nil {
			cs.handshake.Stop()
		}
		cs.mu.Lock()
		if cs.noSession != nil {
			cs.noSession.Stop()
		}
		cs.mu.Unlock()
		cs.s.gate.closeConn(addrKey(cs.addr))
		cs.mu.Lock()
		if cs.key != "" {
			cs.s.gate.closeKey(cs.key)
		}
		cs.mu.Unlock()
	})
	return cs.Conn.Close()
}

// bindKey counts the connection against key's limit the first time a
// session on it is admitted; a connection speaks for one key.
func (cs *connState) bindKey(key string) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	switch {
	case cs.key == key:
		return true
	case cs.key != "":
		return false
	case !cs.s.gate.openKey(key):
		return false
	}
	cs.key = key
	return true
}

// sessionChannel opens a session unless its connection holds too many
// open or opened too many in the last minute: then the channel is refused
// as it opens, saying why, before any handler runs or logs a line. So a
// client multiplexing thousands of sessions over one connection costs the
// server a refusal each, logged once per burst; past
// Limits.RefusedSessions refusals the connection is ended, so a flood
// costs at most that many per connection its address may open.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
	cs := connOf(ctx)
	if cs != nil {
		if reason := cs.openChannel(s.cfg.Limits, time.Now()); reason != "" {
			s.refuseChannel(cs, conn, ch, reason)
			return
		}
		defer cs.closeChannel(s.cfg.Limits)
	}
	// A channel is a session on the instance from the moment it opens,
	// whether or not it ever starts anything.
	if !s.gate.openSession() {
		remote := conn.RemoteAddr().String()
		if cs != nil {
			remote = cs.addr.String()
		}
		s.refuse("sessions", "remote", remote, "user", conn.User())
		_ = ch.Reject(gossh.ResourceShortage, refusalLine(nil, "sessions"))
		return
	}
	defer s.gate.closeSession()
	cc := &countedChannel{NewChannel: ch, s: s, cs: cs}
	// Returns when the client has closed the channel, or the server has
	// for starting nothing; the session may still be ending, but reads
	// no more.
	ssh.DefaultSessionHandler(srv, conn, cc, ctx)
	cc.end()
	if cc.in != nil {
		cc.in.drop()
	}
}

// refuseChannel refuses a session as it opens, and ends its connection
// once it has had too many refused.
func (s *Server) refuseChannel(cs *connState, conn *gossh.ServerConn, ch gossh.NewChannel, reason string) {
	lim := s.cfg.Limits
	cs.mu.Lock()
	refused, note := cs.refused, cs.ending
	cs.mu.Unlock()
	if note != "" {
		_ = ch.Reject(gossh.ResourceShortage, note)
		if lim.RefusedSessions > 0 && refused >= 2*lim.RefusedSessions {
			cs.Close() // still opening sessions while told to go
		}
		return
	}
	s.refuse(reason, "remote", cs.addr.String(), "user", conn.User())
	key := ""
	if conn.Permissions != nil {
		key = conn.Permissions.Extensions[extFingerprint]
	}
	s.suspects.note(reason, key, addrKey(cs.addr), time.Now())
	_ = ch.Reject(gossh.ResourceShortage, refusalLine(nil, reason))
	if lim.RefusedSessions > 0 && refused >= lim.RefusedSessions && s.endConnState(cs, nil, refusalLine(nil, "refused_sessions")) {
		s.refuse("refused_sessions", "remote", cs.addr.String(), "user", conn.User())
		s.suspects.note("refused_sessions", key, addrKey(cs.addr), time.Now())
	}
}

// openChannel counts a new session on the connection, or returns the
// reason to refuse it, counting the refusal. Every "" needs a
// closeChannel.
func (cs *connState) openChannel(lim Limits, now time.Time) string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	reason := cs.admitChannel(lim, now)
	if reason != "" {
		cs.refused++
		return reason
	}
	if cs.noSession != nil {
		cs.noSession.Stop()
	}
	cs.sessions++
	return ""
}

// admitChannel is why a new session is refused, if it is. The caller
// holds cs.mu.
func (cs *connState) admitChannel(lim Limits, now time.Time) string {
	switch {
	case cs.ending != "":
		return "ending"
	case lim.SessionsPerConn > 0 && cs.sessions >= lim.SessionsPerConn:
		return "sessions_per_conn"
	}
	if lim.SessionRate > 0 {
		if cs.sessionRate == nil {
			cs.sessionRate = rate.NewLimiter(rate.Limit(float64(lim.SessionRate)/60), lim.SessionRate)
		}
		if !cs.sessionRate.AllowN(now, 1) {
			return "session_rate"
		}
	}
	return ""
}

// closeChannel counts a session's end; the connection's last one starts
// the wait for another.
func (cs *connState) closeChannel(lim Limits) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.sessions--; cs.sessions == 0 && cs.ending == "" {
		cs.awaitSession(lim.HandshakeTimeout)
	}
}

// endingNote is what the connection's sessions were told when the
// server began ending it, or "" while it is not.
func (cs *connState) endingNote() string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.ending
}

// endConn ends the connection sess is on: see endConnState.
func (s *Server) endConn(sess ssh.Session, note string) {
	if cs := connOf(sess.Context()); cs != nil {
		_ = s.endConnState(cs, sess, note)
	}
}

// endConnState ends the connection cs: every session on it but except
// is ended and told note, new ones are refused, and the connection
// closes a moment after all are over (endGrace after at the most), so
// that what they were told reaches the client before the close: a
// client still sending when the connection closes is reset, which can
// lose it. except, if any, has told its player and ends on its own. It
// reports false, doing nothing, if the connection is being ended
// already.
func (s *Server) endConnState(cs *connState, except ssh.Session, note string) bool {
	cs.mu.Lock()
	already := cs.ending != ""
	if !already {
		cs.ending = note
	}
	if cs.noSession != nil {
		cs.noSession.Stop()
	}
	cs.mu.Unlock()
	if already {
		return false
	}
	var on []*liveSession
	for _, ls := range s.sessions() {
		if connOf(ls.sess.Context()) == cs {
			on = append(on, ls)
		}
	}
	for _, ls := range on {
		if ls.sess != except {
			ls.end(textNote(note))
		}
	}
	go func() {
		grace := time.NewTimer(endGrace)
		defer grace.Stop()
		for _, ls := range on {
			select {
			case <-ls.done:
			case <-grace.C:
			}
		}
		time.Sleep(endLinger)
		cs.Close()
	}()
	return true
}

// endLinger is how long an ended connection stays open after its last
// session, for a client to read the end and leave by itself.
const endLinger = time.Second

// connOf returns the state admitConn attached to a connection's context.
func connOf(ctx ssh.Context) *connState {
	cs, _ := ctx.Value(connKey{}).(*connState)
	return cs
}

// refused reports whether logins on the connection are refused.
func refused(ctx ssh.Context) bool {
	cs := connOf(ctx)
	return cs != nil && cs.refusal != ""
}

// handshakeConfig gives each connection's handshake its hooks: a refused
// connection is told why before its logins fail, and a finished
// authentication stops the handshake deadline.
func (s *Server) handshakeConfig(ctx ssh.Context) *gossh.ServerConfig {
	cfg := &gossh.ServerConfig{}
	cs := connOf(ctx)
	if cs == nil {
		return cfg
	}
	cfg.PreAuthConnCallback = func(pc gossh.ServerPreAuthConn) {
		if cs.refusal != "" {
			_ = pc.SendAuthBanner("smokestack: " + refusalLine(nil, cs.refusal) + "\r\n")
		}
	}
	cfg.AuthLogCallback = func(_ gossh.ConnMetadata, _ string, err error) {
		if err == nil && cs.handshake != nil && cs.handshake.Stop() {
			cs.mu.Lock()
			cs.awaitSession(s.cfg.Limits.HandshakeTimeout)
			cs.mu.Unlock()
		}
	}
	return cfg
}

// awaitSession gives a connection that holds no session d to open one,
// as long as it had for its handshake. The caller holds cs.mu.
func (cs *connState) awaitSession(d time.Duration) {
	if d <= 0 {
		return
	}
	if cs.noSession != nil {
		cs.noSession.Reset(d)
		return
	}
	cs.noSession = time.AfterFunc(d, func() {
		cs.s.refuse("no_session", "remote", cs.addr.String())
		cs.s.suspects.note("no_session", "", addrKey(cs.addr), time.Now())
		cs.Close()
	})
}
