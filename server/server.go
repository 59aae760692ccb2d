// Package server wires SSH to the game: a Wish server whose middleware
// authenticates players by key (or as guests), admits them past the
// limits and bans, then hands each session to the exec commands
// (server/cmd), whose game screen commands it runs as a Bubble Tea
// program on the session's terminal. It knows sessions and the lobby's
// API, never the rules.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/internal/ratelog"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// Config is what a Server needs.
type Config struct {
	// Addr is the address ListenAndServe listens on (":2222").
	Addr string
	// HostKey signs the server's side of every handshake.
	HostKey gossh.Signer
	Lobby   *lobby.Lobby
	// Screens draw each game, by game name.
	Screens map[string]kit.Game
	Logger  *slog.Logger
	// IdleTimeout closes connections with no traffic for this long (0: never).
	IdleTimeout time.Duration
	// Limits bound what one address, key or session may take; the zero
	// value has none (see DefaultLimits).
	Limits Limits
	// Operators are the key fingerprints allowed the admin commands.
	Operators Operators
	// Metrics receives the server's figures; nil makes a fresh set. Pass
	// the one given to the lobby as its Observer.
	Metrics *Metrics
	// PublicAddr is where players reach the server ("host:port"), for
	// the commands it prints (publicaddr.go); empty means this machine's
	// name and the port Serve listens on.
	PublicAddr string
	// Frames is how terminals are drawn: ChangeFrames (the default, "")
	// or TickFrames.
	Frames string
}

// How terminals are drawn (Config.Frames).
const (
	// ChangeFrames draws a frame as soon as the view changes (frames.go).
	ChangeFrames = "change"
	// TickFrames draws with Bubble Tea's own renderer, on its ticker at
	// 120 frames a second: the way before ChangeFrames, kept to compare
	// (smokeload --frames) and to fall back on.
	TickFrames = "tick"
)

// Server is the SSH front door.
type Server struct {
	cfg     Config
	srv     *ssh.Server
	log     *slog.Logger
	refusal *ratelog.Logger // refusals, once per burst
	metrics *Metrics
	gate    *gate
	bans    banCache
	// suspects are the keys and addresses refused lately (suspects.go).
	suspects suspects
	// instance names this instance to operators (operators.go).
	instance string
	// input is what every session was sent and has not read yet
	// (inbox.go).
	inputHeld budget
	// ptys are the PTYs accepted, by the library's session (pty.go).
	ptys sync.Map

	// stopping ends when Shutdown starts, so open sessions can say goodbye.
	stopping context.Context
	stop     context.CancelFunc
	idleOnce sync.Once // starts watchIdle

	mu        sync.Mutex
	live      map[string]*liveSession // by ID
	bySession map[ssh.Session]*liveSession
	public    string // where players reach the server (publicaddr.go)
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
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics("")
	}
	switch cfg.Frames {
	case "":
		cfg.Frames = ChangeFrames
	case ChangeFrames, TickFrames:
	default:
		return nil, fmt.Errorf("server: frames %q: choose %s or %s", cfg.Frames, ChangeFrames, TickFrames)
	}
	// The catalogues are read now, not by the first session: 5 MB of
	// messages that no session should be counted for.
	lang.For(lang.English)
	s := &Server{cfg: cfg, log: cfg.Logger, refusal: ratelog.New(cfg.Logger, 10*time.Second),
		metrics: cfg.Metrics, gate: newGate(cfg.Limits), live: map[string]*liveSession{},
		bySession: map[ssh.Session]*liveSession{}}
	s.metrics.log.Store(s.refusal)
	s.metrics.suspects.Store(&s.suspects)
	s.metrics.input.Store(&s.inputHeld)
	s.bans.lobby = cfg.Lobby
	s.bans.fail = func(err error) {
		s.metrics.StoreFailed(err)
		s.refusal.Log(slog.LevelWarn, "bans", "cannot read bans; using the last ones read", "err", err)
	}
	s.metrics.watchRooms(cfg.Lobby)
	s.stopping, s.stop = context.WithCancel(context.Background())
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Addr),
		func(srv *ssh.Server) error { srv.AddHostKey(cfg.HostKey); return nil },
		wish.WithPublicKeyAuth(s.publicKeyAuth),
		wish.WithKeyboardInteractiveAuth(s.guestAuth),
		wish.WithIdleTimeout(cfg.IdleTimeout),
		// PTYs are emulated by the server's own session (pty.go), not
		// the library's: the frames go to the channel untranslated.
		func(srv *ssh.Server) error { srv.PtyHandler = s.acceptPty; return nil },
	)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	// Every connection passes the gate before its handshake, and every
	// session the connection's own limits as it opens (conn.go).
	srv.ConnCallback = s.admitConn
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
	srv.ServerConfigCallback = s.handshakeConfig
	// Read top to bottom: each step runs inside the one above it.
	srv.Handler = chain(
		s.terminalWrites,
		s.recoverPanics,
		s.logSessions,
		s.checkIdentity,
		s.admitSession,
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
// after a Shutdown or Close. With a store shared between instances it
// answers the other instances' operators meanwhile.
func (s *Server) Serve(l net.Listener) error {
	s.idleOnce.Do(func() { go s.watchIdle() })
	s.mu.Lock()
	if s.public = s.cfg.PublicAddr; s.public == "" {
		s.public = defaultPublicAddr(l)
	}
	s.mu.Unlock()
	s.instance = instanceName(l)
	ctx, cancel := context.WithCancel(s.stopping)
	defer cancel()
	go s.answerOperators(ctx)
	err := s.srv.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections, tells every open session that the
// server is restarting (seats are kept) and restores its terminal, and
// waits for the connections to end until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stop()
	return s.srv.Shutdown(ctx)
}

// Close drops every connection at once.
func (s *Server) Close() error {
	s.stop()
	return s.srv.Close()
}

// endNote is why the server ended a session, as its player is told: a
// message of the server's catalogue, worded in the player's language
// when it is told (In), or a text as it came (a lobby's refusal).
type endNote struct {
	id   string        // the message; "" for text
	time time.Duration // the time the message names, if any
	text string
}

// textNote is a note told as it is.
func textNote(text string) endNote { return endNote{text: text} }

// In words the note in p's language.
func (n endNote) In(p *lang.Printer) string {
	if n.id == "" {
		return n.text
	}
	return p.T(n.id, "Time", p.Duration(n.time))
}

// Error is the note in English, for the log and the JSON of play.
func (n endNote) Error() string { return n.In(nil) }

// restartNote is what open sessions see when the server shuts down.
var restartNote = endNote{id: "server.note.restart"}

// kickNote is what a session an operator closed sees.
var kickNote = endNote{id: "server.note.kicked"}

// bannedNote is what the sessions of a player just banned see.
var bannedNote = endNote{id: "server.refusal.banned"}

// sessionContext ends when the session's connection closes, the server
// shuts down or the session is ended (see liveSession.end); its cause is
// then the endNote to tell the player, if any.
func (s *Server) sessionContext(sess ssh.Session) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(sess.Context())
	stop := context.AfterFunc(s.stopping, func() { cancel(restartNote) })
	return ctx, func(cause error) { stop(); cancel(cause) }
}

// noteFor returns the note to tell the player of a session whose context
// is ctx, if the server ended it.
func noteFor(ctx context.Context) (endNote, bool) {
	var n endNote
	ok := errors.As(context.Cause(ctx), &n)
	return n, ok
}

// toldAs is err as the player of a session whose context is ctx is told
// it: a wait the server cut short by ending the session (a slowed miss on
// a connection past the lookup limit) reads as why the server ended it.
func toldAs(ctx context.Context, err error) error {
	if note, ok := noteFor(ctx); ok && errors.Is(err, context.Canceled) {
		return note
	}
	return err
}

// refuse counts and logs a refusal, once per burst of its kind.
func (s *Server) refuse(reason string, attrs ...any) { s.metrics.refuse(reason, attrs...) }
