// Package server wires SSH to the game: a Wish server whose middleware
// authenticates players by key (or as guests), then hands each session
// either to a Bubble Tea program (with a terminal) or to the exec commands
// scripts use (without one). It knows sessions and the lobby's API, never
// the rules.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// Config is what a Server needs.
type Config struct {
	// Addr is the address ListenAndServe listens on (":2222").
	Addr string
	// HostKey signs the server's side of every handshake.
	HostKey gossh.Signer
	Lobby   *lobby.Lobby
	// Screens draw each game, by game name.
	Screens map[string]session.Game
	Logger  *slog.Logger
	// IdleTimeout closes connections with no traffic for this long (0: never).
	IdleTimeout time.Duration
}

// Server is the SSH front door.
type Server struct {
	cfg Config
	srv *ssh.Server
	log *slog.Logger
	// stopping ends when Shutdown starts, so open sessions can say goodbye.
	stopping context.Context
	stop     context.CancelFunc
}

// New builds a server; it does not listen yet.
func New(cfg Config) (*Server, error) {
	if cfg.Lobby == nil {
		return nil, errors.New("server: no lobby")
	}
	if cfg.HostKey == nil {
		return nil, errors.New("server: no host key")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: cfg.Logger}
	s.stopping, s.stop = context.WithCancel(context.Background())
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Addr),
		func(srv *ssh.Server) error { srv.AddHostKey(cfg.HostKey); return nil },
		wish.WithPublicKeyAuth(s.publicKeyAuth),
		wish.WithKeyboardInteractiveAuth(s.guestAuth),
		wish.WithIdleTimeout(cfg.IdleTimeout),
		// Terminal output goes through the session with \n made \r\n; the
		// TUI reads and writes the channel directly.
		ssh.EmulatePty(),
	)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	// Read top to bottom: each step runs inside the one above it.
	srv.Handler = chain(
		s.recoverPanics,
		s.logSessions,
		s.checkIdentity,
		s.route,
	)
	s.srv = srv
	return s, nil
}

// chain composes middleware so the first runs outermost.
func chain(mws ...wish.Middleware) ssh.Handler {
	h := func(ssh.Session) {}
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

// ListenAndServe listens on Config.Addr and serves until Shutdown or Close.
func (s *Server) ListenAndServe() error {
	l, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.cfg.Addr, err)
	}
	return s.Serve(l)
}

// Serve serves connections from l until Shutdown or Close. It returns nil
// after a Shutdown or Close.
func (s *Server) Serve(l net.Listener) error {
	err := s.srv.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections, tells every open session that the
// server is restarting (seats are kept), and waits for the connections to
// end until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stop()
	return s.srv.Shutdown(ctx)
}

// Close drops every connection at once.
func (s *Server) Close() error {
	s.stop()
	return s.srv.Close()
}

// sessionContext ends when the session's connection closes or the server
// shuts down.
func (s *Server) sessionContext(sess ssh.Session) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(sess.Context())
	stop := context.AfterFunc(s.stopping, cancel)
	return ctx, func() { stop(); cancel() }
}

// restartNote is what open sessions see when the server shuts down.
const restartNote = "the server is restarting: your seat is kept, reconnect in a moment"
