package server

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session"
)

// liveSession is one open session, as operators and shutdown see it.
type liveSession struct {
	id      string
	player  lobby.Player
	remote  string
	cmd     string
	started time.Time
	sess    ssh.Session
	ctx     context.Context // ends with the session; see Server.sessionContext
	cancel  context.CancelCauseFunc
	done    chan struct{} // closed when the session is over
	// lastInput is when the client last typed (Unix nanoseconds).
	lastInput atomic.Int64
	// idleWatched is set while a terminal's program runs, for watchIdle;
	// warned, which only watchIdle touches, while its player is warned.
	idleWatched atomic.Bool
	warned      bool
	// lang is the printer of the language the player reads: their
	// profile's choice, else their client's environment's; the lang
	// command and the lobby's picker change it.
	lang atomic.Pointer[lang.Printer]

	mu     sync.Mutex
	kind   string               // terminal, play or command, once known
	notify func(session.Notice) // shows a notice, while a terminal runs
	// window is the newest window size the client sent; resize takes
	// each new one while a terminal's program runs (see setWindow).
	window     ssh.Window
	hasWindow  bool
	resize     func(ssh.Window)
	pending    bool // window is not yet handed to resize
	delivering bool // deliverWindows is running
}

// endGrace is how long an ended session has to say goodbye before its
// connection is closed under it (a client that stopped reading would
// otherwise keep it forever).
const endGrace = 5 * time.Second

// end ends the session, telling its player note.
func (ls *liveSession) end(note endNote) {
	ls.cancel(note)
	time.AfterFunc(endGrace, func() {
		select {
		case <-ls.done:
		default:
			if c, ok := ls.sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
				c.Close()
			}
		}
	})
}

// printer words what the server tells the session's player.
func (ls *liveSession) printer() *lang.Printer { return ls.lang.Load() }

// setLang makes the session speak t from now on.
func (ls *liveSession) setLang(t lang.Tag) { ls.lang.Store(lang.For(t)) }

func (ls *liveSession) touch() { ls.lastInput.Store(time.Now().UnixNano()) }

func (ls *liveSession) idle(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, ls.lastInput.Load()))
}

func (ls *liveSession) setKind(kind string) {
	ls.mu.Lock()
	ls.kind = kind
	ls.mu.Unlock()
}

func (ls *liveSession) setNotify(f func(session.Notice)) {
	ls.mu.Lock()
	ls.notify = f
	ls.mu.Unlock()
}

// show shows n on the session's screen, if it has one.
func (ls *liveSession) show(n session.Notice) bool {
	ls.mu.Lock()
	f := ls.notify
	ls.mu.Unlock()
	if f != nil {
		f(n)
	}
	return f != nil
}

func (s *Server) register(sess ssh.Session, p lobby.Player) *liveSession {
	ls := &liveSession{id: randomID()[:8], player: p, remote: sess.RemoteAddr().String(), cmd: sess.RawCommand(),
		started: time.Now(), sess: sess, done: make(chan struct{})}
	ls.touch()
	ls.setLang(lang.Choose(p.Lang, sess.Environ()))
	if t, ok := sess.(*termSession); ok {
		t.pty.attach(ls)
	}
	ls.ctx, ls.cancel = s.sessionContext(sess)
	s.mu.Lock()
	s.live[ls.id] = ls
	s.bySession[sess] = ls
	s.mu.Unlock()
	return ls
}

// setWindow records the newest window size and hands it to the
// terminal's program, if one runs, without waiting for it: sizes that
// come while the program takes one are not queued, only the newest is
// handed on, so a storm draws once.
func (ls *liveSession) setWindow(win ssh.Window) {
	ls.mu.Lock()
	ls.window, ls.hasWindow, ls.pending = win, true, true
	start := ls.resize != nil && !ls.delivering
	ls.delivering = ls.delivering || start
	ls.mu.Unlock()
	if start {
		go ls.deliverWindows()
	}
}

// deliverWindows hands the newest size to resize until none is pending;
// one runs at a time, so sizes arrive in order.
func (ls *liveSession) deliverWindows() {
	for {
		ls.mu.Lock()
		f, win := ls.resize, ls.window
		if !ls.pending || f == nil {
			ls.delivering = false
			ls.mu.Unlock()
			return
		}
		ls.pending = false
		ls.mu.Unlock()
		f(win)
	}
}

// latestWindow is the newest window size the client sent, or initial
// when none came yet.
func (ls *liveSession) latestWindow(initial ssh.Window) ssh.Window {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.hasWindow {
		return ls.window
	}
	return initial
}

// watchWindow has f take every new window size from now on (nil stops
// it). shown is the size the program was started with: a newer one that
// came before f is handed to it at once.
func (ls *liveSession) watchWindow(shown ssh.Window, f func(ssh.Window)) {
	ls.mu.Lock()
	ls.resize = f
	ls.pending = ls.hasWindow && ls.window != shown
	start := f != nil && ls.pending && !ls.delivering
	ls.delivering = ls.delivering || start
	ls.mu.Unlock()
	if start {
		go ls.deliverWindows()
	}
}

func (s *Server) unregister(ls *liveSession) {
	s.mu.Lock()
	delete(s.live, ls.id)
	delete(s.bySession, ls.sess)
	s.mu.Unlock()
	close(ls.done)
	ls.cancel(nil)
}

// liveOf returns the registered session for sess.
func (s *Server) liveOf(sess ssh.Session) *liveSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bySession[sess]
}

// terminals appends the sessions whose terminal programs are running to
// out, in no order.
func (s *Server) terminals(out []*liveSession) []*liveSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ls := range s.live {
		if ls.idleWatched.Load() {
			out = append(out, ls)
		}
	}
	return out
}

// sessions returns the open sessions, oldest first.
func (s *Server) sessions() []*liveSession {
	s.mu.Lock()
	out := make([]*liveSession, 0, len(s.live))
	for _, ls := range s.live {
		out = append(out, ls)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].started.Before(out[j].started) })
	return out
}
