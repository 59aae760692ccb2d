package server

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/charmbracelet/ssh"
)

// recoverPanics keeps one session's bug from taking the server down: the
// panic is logged with its stack, the player is told, and the session ends.
func (s *Server) recoverPanics(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("session panic", "user", sess.User(), "remote", sess.RemoteAddr().String(),
					"cmd", sess.Command(), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				fmt.Fprintln(sess.Stderr(), "\r\nsmokestack hit an internal error and closed this session; it has been logged. Your seat is kept: reconnect to carry on.")
				_ = sess.Exit(1)
			}
		}()
		next(sess)
	}
}

// logSessions logs every session's start and end.
func (s *Server) logSessions(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		pty, _, isPty := sess.Pty()
		attrs := []any{"user", sess.User(), "remote", sess.RemoteAddr().String(), "cmd", sess.Command(),
			"key", sess.PublicKey() != nil}
		if isPty {
			attrs = append(attrs, "term", pty.Term, "width", pty.Window.Width, "height", pty.Window.Height)
		}
		s.log.Info("session start", attrs...)
		metrics.Add("sessions_total", 1)
		metrics.Add("sessions_active", 1)
		defer func() {
			metrics.Add("sessions_active", -1)
			s.log.Info("session end", "user", sess.User(), "remote", sess.RemoteAddr().String(),
				"duration", time.Since(start).Round(time.Millisecond))
		}()
		next(sess)
	}
}

// checkIdentity re-checks that the key the session uses is the key that
// authenticated, and records the player for the steps below.
func (s *Server) checkIdentity(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		perms := sess.Permissions()
		var ext map[string]string
		if perms.Permissions != nil {
			ext = perms.Extensions
		}
		p, err := identify(ext, sess.PublicKey(), sess.User())
		if err != nil {
			s.log.Warn("identity check failed", "user", sess.User(), "remote", sess.RemoteAddr().String())
			metrics.Add("auth_rejected", 1)
			fmt.Fprintln(sess.Stderr(), err)
			_ = sess.Exit(1)
			return
		}
		withPlayer(sess.Context(), p)
		next(sess)
	}
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
