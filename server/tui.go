package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session"
)

// Window sizes past these are taken as these: a client claiming
// 10000x10000 would otherwise have every frame drawn at that size.
const (
	maxCols = 512
	maxRows = 256
)

func clampSize(w, h int) (int, int) {
	return min(max(w, 0), maxCols), min(max(h, 0), maxRows)
}

// idleWarning is how long before an inactivity close the player is warned.
const idleWarning = time.Minute

// runTUI runs the Bubble Tea program for a terminal session until the
// player quits, the connection drops or the server ends the session. When
// the server ends it (shutdown, an operator, inactivity) the program quits
// cleanly, which restores the client's terminal, and the player is told
// why on a line of its own.
//
// Nothing waits on the program's behalf in a goroutine of its own: the
// session's end, the end of its input, window sizes (from followWindow,
// which every terminal has anyway) and notices reach it through
// callbacks, and inactivity is watched for every session at once
// (watchIdle). A goroutine costs at least its stack, times every player
// online.
//
// The program runs on the session's goroutine, under the middleware, and
// the frames of every function on the way stay on that goroutine's stack
// for as long as the player does. So the program is set up and its end
// read in functions of their own (newTerminal, ended), and the middleware
// keeps its work out of line too: a stack the session idles on with under
// 3 KB in use is shrunk to 8 KB by the garbage collector, one with 5 KB
// stays at the 16 KB a frame's drawing grew it to.
func (s *Server) runTUI(c *call, ts terminalStart) error {
	t := s.newTerminal(c, ts)
	defer t.detach()
	final, err := t.prog.Run()
	return s.ended(c, ts.start, t, final, err)
}

// terminal is a terminal session's program and what steers it.
type terminal struct {
	prog *tea.Program
	fr   *frames // nil with TickFrames
	out  *lockedWriter
	live *liveSession
	size ssh.Window // the window the program started with
	stop func() bool
}

// newTerminal makes the program for a terminal session and attaches it
// to the session: its end, its window sizes, notices and inactivity.
func (s *Server) newTerminal(c *call, ts terminalStart) *terminal {
	pty, _, _ := c.sess.Pty()
	// One writer at a time: the frames, the window title and the bell
	// come from different goroutines, and an SSH channel's writes may
	// interleave packet by packet.
	t := &terminal{live: c.live, size: c.live.latestWindow(pty.Window), out: &lockedWriter{mu: new(sync.Mutex), w: c.sess, conn: connOf(c.sess.Context())}}
	w, h := clampSize(t.size.Width, t.size.Height)
	// The title and the bell go with the frames, or, on Bubble Tea's
	// renderer, straight out.
	var term io.Writer = t.out
	if s.cfg.Frames != TickFrames {
		// Frames drawn as soon as the view changes (frames.go).
		// They go to the channel untranslated (pty.go), one writer
		// at a time with the rest.
		t.fr = newFrames(&lockedWriter{mu: t.out.mu, w: rawOutput(c.sess), conn: t.out.conn}, w, h)
		t.fr.written = s.metrics.frames
		t.fr.shown = s.metrics.moveToFrame
		term = t.fr
	}
	model := session.New(session.Config{
		Lobby: s.cfg.Lobby, Games: s.cfg.Screens, Player: c.player, Start: ts.start, Theme: ts.theme,
		Lang: c.live.printer().Tag(), OnLang: c.live.setLang,
		Width: w, Height: h,
		Context:    c.ctx,
		Renderer:   renderer(c.sess, pty.Term),
		PublicAddr: s.publicAddr(),
		Terminal:   term,
		NoBell:     ts.noBell,
		// Set before Run, so before the session can post.
		Post: func(msg tea.Msg) { t.prog.Send(msg) },
	})
	// The session sets the window title while it plays; the terminal
	// keeps the player's own on its title stack and gets it back on the
	// way out (xterm's XTWINOPS; terminals without it ignore both).
	_, _ = io.WriteString(t.out, pushTitle)
	opts := []tea.ProgramOption{
		// The client closing the session (the connection may live on,
		// multiplexed) means nothing more can be typed.
		tea.WithInput(inputEnd{s.input(c.ctx, c), func() { go t.prog.Quit() }}),
		tea.WithOutput(t.out),
		tea.WithEnvironment(append(c.sess.Environ(), "TERM="+pty.Term)),
		// The server, not each program, decides what a signal means:
		// otherwise every program quits on SIGTERM by itself, racing the
		// shutdown that tells its player why.
		tea.WithoutSignalHandler(),
	}
	if t.fr == nil {
		// Bubble Tea's renderer, on its fastest tick; no mouse, as in
		// frames.go.
		opts = append(opts, tea.WithAltScreen(), tea.WithFPS(120))
	} else {
		model = t.fr.onChange(model)
		opts = append(opts, tea.WithoutRenderer())
	}
	t.prog = tea.NewProgram(model, opts...) // before Run reads input, so before inputEnd can call it
	prog := t.prog
	if t.fr != nil {
		t.fr.send = prog.Send
	}
	c.live.setNotify(func(n session.Notice) { go prog.Send(n) })
	c.live.watchWindow(t.size, func(win ssh.Window) {
		w, h := clampSize(win.Width, win.Height)
		c.s.metrics.windowSizes.Inc()
		prog.Send(tea.WindowSizeMsg{Width: w, Height: h}) // returns at once once the program has ended
	})
	t.stop = context.AfterFunc(c.ctx, func() {
		if _, ok := noteFor(c.ctx); ok {
			prog.Quit() // leaves the alt screen, so the note shows
		} else {
			prog.Kill() // the connection is gone: nobody to restore
		}
	})
	c.live.idleWatched.Store(true)
	return t
}

// detach undoes newTerminal's attachments, once the program has ended,
// and gives the player's window title back.
func (t *terminal) detach() {
	t.live.idleWatched.Store(false)
	t.stop()
	t.live.watchWindow(t.size, nil)
	t.live.setNotify(nil)
	_, _ = io.WriteString(t.out, popTitle)
}

// ended restores the terminal after its program, lets go of the rooms it
// held and says why it ended, when the server ended it.
func (s *Server) ended(c *call, start session.Start, t *terminal, final tea.Model, err error) error {
	if t.fr != nil {
		t.fr.restore()
	}
	if oc, ok := final.(*onChange); ok {
		final = oc.Unwrap()
	}
	// A session holding rooms open lets go of them here, however it ended.
	if closer, ok := final.(interface{ Close() }); ok {
		closer.Close()
	}
	// Refused for good by the lobby: the caller ends the connection.
	if r, ok := final.(interface{ Refused() error }); ok && r.Refused() != nil {
		return r.Refused()
	}
	note, ended := noteFor(c.ctx)
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		s.log.Error("session screen panic", "user", c.sess.User(), "start", start.Mode, "code", start.Code)
		return errors.New(c.live.printer().T("server.screen_panic"))
	case ended:
		// After the restored terminal, on the same stream, so it cannot
		// overtake it.
		fmt.Fprint(c.out, "\n"+note.In(c.live.printer())+"\n"+s.seatWordsNote(c.live.printer(), final)) // made \r\n by termSession
		return nil
	case errors.Is(err, tea.ErrProgramKilled):
		return nil // the connection went away
	}
	return err
}

// seatWordsNote repeats to a guest, as the server ends their session,
// the seat words its screens showed: the restored terminal no longer
// shows them, and without one a guest cannot come back.
func (s *Server) seatWordsNote(p *lang.Printer, final tea.Model) string {
	sw, ok := final.(interface{ SeatWords() []session.SeatWord })
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, w := range sw.SeatWords() {
		fmt.Fprintf(&b, "%s\n  %s\n", p.T("server.seat_word", "Code", w.Code, "Word", w.Word),
			s.sshCommand(true, "join", w.Code, w.Word))
	}
	return b.String()
}

// watchIdle warns terminal sessions left without input for a while and
// ends them at Limits.Inactivity, until the server stops: one goroutine
// and one ticker for every session on the server.
func (s *Server) watchIdle() {
	limit := s.cfg.Limits.Inactivity
	if limit <= 0 {
		return
	}
	warnAt := limit - min(idleWarning, limit/2)
	tick := time.NewTicker(min(max(limit/20, 10*time.Millisecond), 5*time.Second))
	defer tick.Stop()
	var live []*liveSession
	for {
		select {
		case <-s.stopping.Done():
			return
		case now := <-tick.C:
			live = s.terminals(live[:0])
			for _, ls := range live {
				idle := ls.idle(now)
				switch {
				case ls.ctx.Err() != nil: // ending already
				case idle >= limit:
					s.refuse("inactivity", "key", ls.player.Key, "idle", idle.Round(time.Second))
					ls.end(endNote{id: "server.note.idle_closed", time: limit})
				case idle >= warnAt && !ls.warned:
					ls.warned = true
					ls.show(session.Notice{Text: ls.printer().T("server.note.idle_warning", "Time", ls.printer().Duration(limit-idle))})
				case idle < warnAt && ls.warned:
					ls.warned = false
					ls.show(session.Notice{})
				}
			}
			clear(live) // hold no session past its end
		}
	}
}

// The terminal's title stack: save the window title, and restore it.
const (
	pushTitle = "\x1b[22;0t"
	popTitle  = "\x1b[23;0t"
)

// lockedWriter lets one Write through at a time, and writes it to w
// maxWrite bytes at a time, one frame's pieces together, held by the
// connection for one write (heldWrites, pty.go). The writers of one
// session share mu.
type lockedWriter struct {
	mu   *sync.Mutex
	w    io.Writer
	conn *connState // nil for a connection the gate does not know
}

// maxWrite is the most written to a session at once: a packet. The SSH
// library keeps, for every channel and connection, buffers as large as
// the largest packet sent (its own copy, and the encrypted one), up to
// the client's 32 KB: a frame written whole would have every session
// keep two buffers of its largest frame. The packets of a frame go out
// in one system call however many they are (heldWrites, pty.go), so
// they can be small: a packet more for every KB of a frame, 40 bytes
// and a seal each, against 2 KB a session for each KB of packet.
const maxWrite = 1 << 10

func (l *lockedWriter) Write(p []byte) (n int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		l.conn.holdWrites()
		defer func() {
			if rerr := l.conn.releaseWrites(); err == nil {
				err = rerr
			}
		}()
	}
	for len(p) > 0 {
		m, err := l.w.Write(p[:min(len(p), maxWrite)])
		n += m
		if err != nil {
			return n, err
		}
		p = p[m:]
	}
	return n, nil
}

// inputEnd reports when the client's input ends. Bubble Tea ignores the
// end of its input, which would leave a closed session's program running.
type inputEnd struct {
	r     io.Reader
	ended func()
}

func (i inputEnd) Read(p []byte) (int, error) {
	n, err := i.r.Read(p)
	if err != nil {
		i.ended()
	}
	return n, err
}

// renderer styles for the client's terminal, from the TERM and COLORTERM
// it sent. Unlike wish's MakeRenderer it never queries the terminal for its
// background: a client that does not answer would leave the session
// waiting for a keypress before the first frame.
func renderer(sess ssh.Session, term string) *lipgloss.Renderer {
	env := clientEnv(append(sess.Environ(), "TERM="+term))
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	r.SetHasDarkBackground(true)
	return r
}

// clientEnv is the environment the SSH client sent, for termenv.
type clientEnv []string

func (e clientEnv) Environ() []string { return e }

func (e clientEnv) Getenv(key string) string {
	for i := len(e) - 1; i >= 0; i-- { // the last setting wins, as in a shell
		if k, v, ok := strings.Cut(e[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
