package server

import (
	"bytes"
	"io"
	"sync"

	"github.com/charmbracelet/ssh"
)

// A terminal session's output. Told to emulate a PTY (ssh.EmulatePty),
// the SSH library copies every write twice to make each "\n" a "\r\n"
// (its ptyWriter): the frames too, which are most of what a session
// sends and write "\r\n" themselves (frames.go). So the server accepts
// PTYs itself (acceptPty) and its outermost middleware (terminalWrites)
// hands the handlers below a termSession, whose writes are made "\r\n"
// as the library's were, copied only when there is a "\n" to make so;
// the frames go to the channel as they are (rawOutput).

// acceptPty accepts a client's PTY request and keeps it for
// terminalWrites: a library session not emulating a PTY reports none.
// The request precedes the session's command, so its handler; what
// acceptPty returns runs once the session's requests end.
func (s *Server) acceptPty(_ ssh.Context, sess ssh.Session, pty ssh.Pty) (func() error, error) {
	ap := &acceptedPty{Pty: pty}
	if _, winch, _ := sess.Pty(); winch != nil {
		go ap.follow(winch)
	}
	s.ptys.Store(sess, ap)
	return func() error { s.ptys.Delete(sess); return nil }, nil
}

// acceptedPty is a PTY as the client asked for it, and the window sizes
// it sends after. They are read from the moment the PTY is accepted,
// whether or not a session ever registers for them: the SSH library
// hands each size over before it takes the channel's next request, so
// one left unread would hold the channel's requests, and its slot
// among the instance's sessions, for ever.
type acceptedPty struct {
	ssh.Pty

	mu    sync.Mutex
	win   ssh.Window // the newest size
	moved bool       // the client sent one
	live  *liveSession
}

// follow reads every size the client sends until the channel's requests
// end, handing each to the session registered for them, if any.
func (ap *acceptedPty) follow(winch <-chan ssh.Window) {
	for win := range winch {
		ap.mu.Lock()
		ap.win, ap.moved = win, true
		ls := ap.live
		ap.mu.Unlock()
		if ls != nil {
			ls.touch() // a resize counts as input
			ls.setWindow(win)
		}
	}
}

// attach hands ls every size from now on, and the newest so far.
func (ap *acceptedPty) attach(ls *liveSession) {
	ap.mu.Lock()
	ap.live = ls
	win, moved := ap.win, ap.moved
	ap.mu.Unlock()
	if moved {
		ls.setWindow(win)
	}
}

// terminalWrites hands the steps below a termSession when the client
// asked for a PTY. It runs outermost, so every step's writes are
// translated.
func (s *Server) terminalWrites(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if ap, ok := s.ptys.Load(sess); ok {
			sess = &termSession{Session: sess, pty: ap.(*acceptedPty)}
		}
		next(sess)
	}
}

// termSession is a session with a PTY, whose Write and Stderr make
// every "\n" a "\r\n"; its embedded Session writes as it is given.
type termSession struct {
	ssh.Session
	pty *acceptedPty
}

// Pty reports the PTY as requested, with its window then: the newest
// size is handed to the session's liveSession (acceptedPty.attach,
// liveSession.latestWindow). The channel of sizes is read by the PTY
// alone: none is returned.
func (p *termSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	return p.pty.Pty, nil, true
}

// EmulatedPty is true: the PTY is emulated, by termSession.
func (p *termSession) EmulatedPty() bool { return true }

func (p *termSession) Write(b []byte) (int, error) { return crlfWrite(p.Session, b) }

func (p *termSession) Stderr() io.ReadWriter { return crlfStderr{p.Session.Stderr()} }

// crlfStderr is a PTY session's stderr: see termSession.
type crlfStderr struct{ io.ReadWriter }

func (e crlfStderr) Write(b []byte) (int, error) { return crlfWrite(e.ReadWriter, b) }

// rawOutput is where a terminal session's frames are written: the
// channel, as they are.
func rawOutput(sess ssh.Session) io.Writer {
	if p, ok := sess.(*termSession); ok {
		return p.Session
	}
	return sess
}

// crlfWrite writes b to w with a "\r" before each "\n" that has none, as
// the library's ptyWriter does, in one write; it reports at most
// len(b) written.
func crlfWrite(w io.Writer, b []byte) (int, error) {
	if bytes.IndexByte(b, '\n') < 0 {
		return w.Write(b)
	}
	buf := framePool.Get().(*bytes.Buffer)
	buf.Reset()
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			buf.Write(rest)
			break
		}
		buf.Write(rest[:i])
		if i == 0 || rest[i-1] != '\r' { // at 0 it follows a "\n", or nothing
			buf.WriteByte('\r')
		}
		buf.WriteByte('\n')
		rest = rest[i+1:]
	}
	n, err := w.Write(buf.Bytes())
	if buf.Cap() <= maxPooled {
		framePool.Put(buf)
	}
	return min(n, len(b)), err
}
