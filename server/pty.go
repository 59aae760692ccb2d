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
// acceptPty returns runs once the session's requests end. The window
// sizes the client sends after are not the library's: the channel's
// request filter takes them (transport.go) and hands them to the PTY of
// its channel, found through the session's stderr (channelOf).
func (s *Server) acceptPty(_ ssh.Context, sess ssh.Session, pty ssh.Pty) (func() error, error) {
	var ap *acceptedPty
	if c := channelOf(sess); c != nil {
		ap = c.acceptedPty()
	} else {
		ap = new(acceptedPty)
	}
	ap.mu.Lock()
	ap.req = pty
	ap.mu.Unlock()
	s.ptys.Store(sess, ap)
	return func() error { s.ptys.Delete(sess); return nil }, nil
}

// acceptedPty is a PTY as the client asked for it, and the window sizes
// it sends after, from the moment its channel opened: they are handed
// to the session registered for them, if any.
type acceptedPty struct {
	mu    sync.Mutex
	req   ssh.Pty    // the PTY as requested
	win   ssh.Window // the newest size
	moved bool       // the client sent one
	live  *liveSession
}

// resized takes a size the client sent.
func (ap *acceptedPty) resized(win ssh.Window) {
	ap.mu.Lock()
	ap.win, ap.moved = win, true
	ls := ap.live
	ap.mu.Unlock()
	if ls != nil {
		ls.touch() // a resize counts as input
		ls.setWindow(win)
	}
}

// requested is the PTY as the client requested it.
func (ap *acceptedPty) requested() ssh.Pty {
	ap.mu.Lock()
	defer ap.mu.Unlock()
	return ap.req
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
	return p.pty.requested(), nil, true
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

// A frame is one write on its connection. The SSH library sends a
// channel's data a packet at a time, and writes each packet to the
// connection by itself: a system call each, and a wake-up of the
// client's reader each. A frame goes out maxWrite bytes a packet
// (tui.go), so a frame of 6 KB was three system calls. So while a
// terminal's writer writes (lockedWriter), its connection holds the
// packets the library writes, and writes them at once when the frame is
// done: one system call per frame, the packets and their buffers as
// small as before. What is held is in a buffer borrowed for the frame
// from the pool the frames are drawn in: an idle connection holds none.

// maxHeld is the most a connection holds before it writes: a frame
// larger than this goes out in writes of about this size.
const maxHeld = maxPooled

// heldWrites are a connection's writes held while frames are written.
type heldWrites struct {
	mu    sync.Mutex
	holds int           // writers holding the writes
	buf   *bytes.Buffer // what is held, while holds > 0
	err   error         // a write that failed: the connection is gone
	// writes counts the connection's writes: its system calls.
	writes int64
}

// Write writes p to the connection, or holds it while a frame is being
// written. It runs under the SSH library's own lock, a packet at a
// time, in the order the packets were sealed in.
func (cs *connState) Write(p []byte) (int, error) {
	h := &cs.out
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return 0, h.err
	}
	if h.holds == 0 {
		return cs.writeOut(p)
	}
	if h.buf != nil && h.buf.Len()+len(p) > maxHeld {
		if err := cs.flushHeld(); err != nil {
			return 0, err
		}
	}
	if h.buf == nil {
		h.buf = framePool.Get().(*bytes.Buffer)
		h.buf.Reset()
	}
	h.buf.Write(p)
	return len(p), nil
}

// holdWrites holds the connection's writes until releaseWrites.
func (cs *connState) holdWrites() {
	cs.out.mu.Lock()
	cs.out.holds++
	cs.out.mu.Unlock()
}

// writeCount is how many writes the connection made so far.
func (cs *connState) writeCount() int64 {
	cs.out.mu.Lock()
	defer cs.out.mu.Unlock()
	return cs.out.writes
}

// releaseWrites ends a holdWrites, writing what is held once no writer
// holds it any more.
func (cs *connState) releaseWrites() error {
	h := &cs.out
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.holds--; h.holds > 0 {
		return h.err
	}
	err := cs.flushHeld()
	if h.buf != nil {
		if h.buf.Cap() <= maxPooled {
			framePool.Put(h.buf)
		}
		h.buf = nil
	}
	return err
}

// flushHeld writes what is held. The caller holds cs.out.mu.
func (cs *connState) flushHeld() error {
	h := &cs.out
	if h.err != nil || h.buf == nil || h.buf.Len() == 0 {
		return h.err
	}
	_, err := cs.writeOut(h.buf.Bytes())
	h.buf.Reset()
	return err
}

// writeOut writes p to the connection. Once a write fails the
// connection is closed: the library was told the packets it held went
// out, so nothing after them may.
func (cs *connState) writeOut(p []byte) (int, error) {
	cs.out.writes++
	if cs.s != nil {
		cs.s.metrics.connWrites.Inc()
	}
	n, err := cs.Conn.Write(p)
	if err != nil {
		cs.out.err = err
		_ = cs.Conn.Close()
	}
	return n, err
}
