package server

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/lang"
)

// recoverPanics keeps one session's bug from taking the server down: the
// panic is logged with its stack, the player is told, and the session ends.
func (s *Server) recoverPanics(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("session panic", "user", sess.User(), "remote", sess.RemoteAddr().String(),
					"cmd", sess.Command(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				p := lang.For(lang.Choose(playerFrom(sess.Context()).Lang, sess.Environ()))
				fmt.Fprintln(sess.Stderr(), "\r\n"+p.T("server.panic"))
				_ = sess.Exit(1)
			}
		}()
		next(sess)
	}
}

// The middleware below stays on a terminal session's stack for as long
// as the player does (see runTUI): each does its work in a function of
// its own and keeps little of its own while the session runs.

// logSessions logs every session's start and end; those of a key or an
// address refused lately once per burst (suspects.go).
func (s *Server) logSessions(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := s.logStart(sess)
		defer s.logEnd(sess, start)
		next(sess)
	}
}

func (s *Server) logStart(sess ssh.Session) time.Time {
	start := time.Now()
	pty, _, isPty := sess.Pty()
	attrs := []any{"user", sess.User(), "remote", sess.RemoteAddr().String(), "cmd", sess.Command(),
		"key", sess.PublicKey() != nil}
	if isPty {
		attrs = append(attrs, "term", pty.Term, "width", pty.Window.Width, "height", pty.Window.Height)
	}
	s.logSession("session start", sessionKey(sess), clientAddr(sess), attrs...)
	return start
}

func (s *Server) logEnd(sess ssh.Session, start time.Time) {
	s.logSession("session end", sessionKey(sess), clientAddr(sess), "user", sess.User(), "remote", sess.RemoteAddr().String(),
		"duration", time.Since(start).Round(time.Millisecond))
}

// sessionKey is the fingerprint of the key the session logged in with,
// or "" for none.
func sessionKey(sess ssh.Session) string {
	if k := sess.PublicKey(); k != nil {
		return gossh.FingerprintSHA256(k)
	}
	return ""
}

// checkIdentity re-checks that the key the session uses is the key that
// authenticated, and records the player for the steps below.
func (s *Server) checkIdentity(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if s.identify(sess) {
			next(sess)
		}
	}
}

// identify records the session's player, or refuses the session.
func (s *Server) identify(sess ssh.Session) bool {
	perms := sess.Permissions()
	var ext map[string]string
	if perms.Permissions != nil {
		ext = perms.Extensions
	}
	p, err := identify(ext, sess.PublicKey(), sess.User())
	if err != nil {
		s.refuse("identity", "user", sess.User(), "remote", sess.RemoteAddr().String())
		s.suspects.note("identity", "", clientAddr(sess), time.Now())
		fmt.Fprintln(sess.Stderr(), err)
		_ = sess.Exit(1)
		return false
	}
	p.Addr, p.From = s.lookupAddr(sess), clientAddr(sess)
	withPlayer(sess.Context(), p)
	return true
}

// clientAddr is where the session comes from, as the per-address limits
// count it (addrKey), whether or not they are on: a guest's seat word
// works from there only.
func clientAddr(sess ssh.Session) string {
	addr := remoteAddr(sess.RemoteAddr())
	if cs := connOf(sess.Context()); cs != nil {
		addr = cs.addr
	}
	if !addr.IsValid() {
		return ""
	}
	return addrKey(addr)
}

// admitSession lets a session in unless its key or address is banned (an
// operator's key never is, so a mistaken ban can be lifted) or its key
// holds too many connections, and registers it for operators and for
// shutdown. The instance's sessions are counted as their channels open
// (sessionChannel).
func (s *Server) admitSession(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		ls := s.admit(sess)
		if ls == nil {
			return
		}
		defer s.release(ls)
		next(sess)
	}
}

// admit registers the session, or refuses it, telling the client why,
// and returns nil.
func (s *Server) admit(sess ssh.Session) *liveSession {
	p := playerFrom(sess.Context())
	cs := connOf(sess.Context())
	reason := ""
	switch {
	case !s.isOperator(p) && s.bans.covers(sess.Context(), p.Key, remoteAddr(sess.RemoteAddr())):
		reason = "banned"
	case cs != nil && !p.Guest && !cs.bindKey(p.Key):
		reason = "conns_per_key"
	}
	if reason != "" {
		s.refuse(reason, "remote", sess.RemoteAddr().String(), "key", p.Key)
		s.suspects.note(reason, p.Key, clientAddr(sess), time.Now())
		// Its profile is not read yet: the client's environment says
		// what it reads.
		fmt.Fprintln(sess.Stderr(), "smokestack: "+refusalLine(lang.For(lang.Choose("", sess.Environ())), reason))
		_ = sess.Exit(1)
		return nil
	}
	// Who the key plays as: its profile, with its name. Only now, so
	// a refused key leaves nothing in the store.
	p, err := s.cfg.Lobby.Identify(sess.Context(), p)
	if err != nil {
		fmt.Fprintln(sess.Stderr(), "smokestack: "+err.Error())
		_ = sess.Exit(1)
		return nil
	}
	withPlayer(sess.Context(), p)
	return s.register(sess, p)
}

// release undoes admit once the session is over.
func (s *Server) release(ls *liveSession) {
	s.unregister(ls)
}

// route sends terminal sessions to the TUI and the rest to the exec
// commands. A command that needs a terminal but has none is told to use
// ssh -t instead of getting a garbled screen.
func (s *Server) route(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		_ = sess.Exit(s.run(sess))
		next(sess)
	}
}
