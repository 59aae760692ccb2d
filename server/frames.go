package server

import (
	"bytes"
	"hash/maphash"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/smokestack/smokestack/session/kit"
)

// Bubble Tea v1's renderer writes a frame only at its next tick (120 a
// second at its most), so every change waits for it, up to 8 ms, and the
// ticker wakes every idle session 120 times a second. It also keeps three
// copies of the last frame per session, and while the view is unchanged
// copies it again at every tick to compare. The programs here run
// without it (tea.WithoutRenderer) and draw their own frames with
// onChange: right after an update changes the view, only the lines that
// changed, written at once; nothing at all while nothing changes. See
// docs/performance.md, "Frames: drawing on change".

// minFrameGap is the least time between two frames: an update coming
// sooner after a frame than this is drawn at the end of the gap, with
// whatever else came in it, so a burst of updates is a frame or two, never
// more than Bubble Tea's fastest tick would draw.
const minFrameGap = time.Second / 120

// onChange is a program's root model that draws the model it wraps after
// each update. Its own View is empty: the program runs without a
// renderer, and a view that is drawn is computed once.
type onChange struct {
	inner tea.Model
	f     *frames
}

// drawNow asks for the frame that a burst of updates put off.
type drawNow struct{ f *frames }

// frames is what the terminal shows and how to change it. It is used only
// from the program's event loop (Init and Update), then by restore once
// the program has ended.
type frames struct {
	out           io.Writer
	width, height int
	// lines are the hashes of the lines on screen, top to bottom; fewer
	// than height when the last frame was shorter. Hashes, not the lines:
	// a screen's worth of text per session is what this keeps from
	// holding. A hash (seeded per process, so nobody can aim for a
	// collision) differs for any change with all but a 2^-64 chance.
	lines []uint64
	// full makes the next frame write every line: after a resize or at
	// the start.
	full bool
	last time.Time // when the last frame was written
	// send hands the program a message (tea.Program.Send); put off is
	// set while a drawNow is on its way.
	send   func(tea.Msg)
	putOff bool
	// held is what the model wrote to the frames (Write) since the last
	// frame: it goes out with the next.
	held []byte
	// written counts the frames written; nil counts none.
	written prometheus.Counter
	// moved is when the oldest move the screen has taken in but not yet
	// drawn was stored (moveStored), and shown hears how long after it
	// the frame that shows it was written; nil hears nothing.
	moved time.Time
	shown prometheus.Observer
}

// moveStored is a message that shows a move another seat played: a room
// update (the session's), with when the move was stored; zero when the
// update shows no new move, or the screen's own.
type moveStored interface{ MoveStored() time.Time }

// newFrames makes the frames for out, a terminal of w×h cells; send is
// set before the program runs. The model they draw is given to onChange.
func newFrames(out io.Writer, w, h int) *frames {
	return &frames{out: out, width: w, height: h, full: true}
}

// onChange wraps model to draw on f.
func (f *frames) onChange(model tea.Model) *onChange { return &onChange{inner: model, f: f} }

// Write holds p, a window title or a bell the model writes beside its
// view (session.Config.Terminal), for the frame its update draws: they
// go out in one write, where separate ones were a packet and a system
// call each. The model writes from its update loop, as the frames draw,
// so Write needs no lock.
func (f *frames) Write(p []byte) (int, error) {
	f.held = append(f.held, p...)
	return len(p), nil
}

// Init takes over the terminal as Bubble Tea's own renderer would: the
// alternate screen, cleared, no cursor, bracketed paste, then draws the
// first frame. The mouse is not reported: the screens do nothing with it
// (session's input model), and a terminal's own select-and-copy works,
// for a room code or an invite; in the alternate screen most terminals
// turn the wheel into ↑/↓, which move the menu and scroll the log.
func (m *onChange) Init() tea.Cmd {
	cmd := m.inner.Init()
	m.f.render(ansi.HideCursor+ansi.SetModeAltScreenSaveCursor+ansi.EraseEntireScreen+ansi.CursorHomePosition+
		ansi.SetModeBracketedPaste, m.inner)
	return cmd
}

// Update runs the wrapped model's update and draws what it changed.
func (m *onChange) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case drawNow:
		if msg.f == m.f {
			m.f.putOff = false
			m.f.render("", m.inner)
		}
		return m, nil
	case tea.WindowSizeMsg:
		m.f.width, m.f.height, m.f.full = msg.Width, msg.Height, true
	case moveStored:
		if at := msg.MoveStored(); !at.IsZero() && m.f.moved.IsZero() {
			m.f.moved = at
		}
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	m.f.changed(m.inner)
	return m, cmd
}

// View is empty: the frames are drawn by Update.
func (m *onChange) View() string { return "" }

// Unwrap returns the wrapped model.
func (m *onChange) Unwrap() tea.Model { return m.inner }

// changed draws model's view now, or at the end of the gap after the
// last frame.
func (f *frames) changed(model tea.Model) {
	if f.putOff {
		return // the frame on its way draws this too
	}
	if wait := minFrameGap - time.Since(f.last); wait > 0 && f.send != nil {
		f.putOff = true
		time.AfterFunc(wait, func() { f.send(drawNow{f}) }) // returns at once once the program has ended
		return
	}
	f.render("", model)
}

// appender is a model that can append its view to a buffer, as
// session.Model does: its frames are drawn from a buffer the sessions
// share, not from a string of their own (a game frame's largest garbage).
type appender interface {
	AppendView(dst []byte) []byte
}

// viewPool holds the buffers appenders' views are drawn into.
var viewPool = sync.Pool{New: func() any { return new([]byte) }}

// render draws prefix and model's view. An appender's view is read from
// its buffer as a string without a copy: draw keeps nothing of it (the
// lines' hashes, and copies of the lines it writes), and the buffer goes
// back to the pool only once draw has returned.
func (f *frames) render(prefix string, model tea.Model) {
	a, ok := model.(appender)
	if !ok {
		f.draw(prefix, model.View())
		return
	}
	p := viewPool.Get().(*[]byte)
	*p = a.AppendView((*p)[:0])
	f.draw(prefix, unsafe.String(unsafe.SliceData(*p), len(*p)))
	if cap(*p) <= maxPooled {
		viewPool.Put(p)
	}
}

// framePool holds the buffers frames are written from, shared by every
// session: a session keeps none between frames.
var framePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer put back in framePool: a rare huge
// frame's buffer goes to the garbage collector instead.
const maxPooled = 64 << 10

// draw writes prefix, then whatever lines of view differ from the
// screen. Nothing is written when nothing changed.
func (f *frames) draw(prefix, view string) {
	buf := framePool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.WriteString(prefix)
	buf.Write(f.held)
	f.held = f.held[:0]
	f.diff(buf, view)
	if buf.Len() > 0 {
		// One write: the session's writer cuts it in pieces
		// (lockedWriter) with nothing else between them. A failed write
		// is a client gone: its session ends by itself.
		_, _ = f.out.Write(buf.Bytes())
		f.last = time.Now()
		if f.written != nil {
			f.written.Inc()
		}
		if !f.moved.IsZero() && f.shown != nil {
			f.shown.Observe(f.last.Sub(f.moved).Seconds())
		}
	}
	f.moved = time.Time{} // drawn, or the move changed nothing here
	if buf.Cap() <= maxPooled {
		framePool.Put(buf)
	}
}

// seed keys the line hashes for this process.
var seed = maphash.MakeSeed()

// diff appends to buf what turns the screen into view: each changed line
// is written whole, over the old one, and the cursor jumps over the
// lines that did not change. Lines past the window's height are dropped
// from the top, as Bubble Tea does, and lines wider than the window are
// cut, so the terminal never wraps or scrolls.
func (f *frames) diff(buf *bytes.Buffer, view string) {
	shown := len(f.lines)
	if f.full {
		// What the terminal shows is unknown: write every line, and
		// clear whatever is below them.
		f.lines, f.full, shown = f.lines[:0], false, maxRows+1
	}
	n := strings.Count(view, "\n") + 1
	if f.height > 0 && n > f.height {
		for range n - f.height {
			_, view, _ = strings.Cut(view, "\n")
		}
		n = f.height
	}
	cursor := -1 // the row the cursor is on, after a line written there
	for row := range n {
		line, rest, _ := strings.Cut(view, "\n")
		view = rest
		h := maphash.String(seed, line)
		if row < len(f.lines) && f.lines[row] == h {
			continue
		}
		moveTo(buf, cursor, row)
		writeLine(buf, line, f.width)
		cursor = row
		if row < len(f.lines) {
			f.lines[row] = h
		} else {
			f.lines = append(f.lines, h)
		}
	}
	if shown > n && (f.height <= 0 || n < f.height) { // the last frame was taller: clear below
		moveTo(buf, cursor, n)
		buf.WriteString(ansi.EraseScreenBelow)
	}
	f.lines = f.lines[:n]
}

// moveTo moves the cursor from the end of row from (-1: anywhere) to the
// start of row to, below it: by line feeds over a few lines, else by
// position.
func moveTo(buf *bytes.Buffer, from, to int) {
	if from >= 0 && to > from && to-from <= 4 {
		// "\r" also ends a full line's pending wrap. Each "\n" has its
		// "\r": the frames reach the terminal untranslated (pty.go).
		for range to - from {
			buf.WriteString("\r\n")
		}
		return
	}
	buf.WriteString("\x1b[")
	buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(to+1), 10))
	buf.WriteString(";1H")
}

// writeLine writes line over the one on screen: cut to width, or
// followed by an erase of the rest of the old one when shorter. A line
// exactly as wide is not: past the last column an erase would blank the
// line's last cell.
func writeLine(buf *bytes.Buffer, line string, width int) {
	if width <= 0 {
		buf.WriteString(line)
		return
	}
	w := kit.Width(line)
	if w > width {
		line = ansi.Truncate(line, width, "")
		w = kit.Width(line) // a cell short when a wide rune did not fit
	}
	buf.WriteString(line)
	if w < width {
		buf.WriteString(ansi.EraseLineRight)
	}
}

// restore gives the terminal back as Bubble Tea's own renderer would:
// the main screen with its cursor, no mouse reports (never asked for, but
// a terminal left in a mode by another program gets it back off), no
// bracketed paste.
// Like the frames it holds no bare "\n".
func (f *frames) restore() {
	_, _ = io.WriteString(f.out, ansi.EraseEntireLine+"\r"+ansi.ResetModeBracketedPaste+ansi.ShowCursor+
		ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseAnyEvent+ansi.ResetModeMouseExtSgr+
		ansi.ResetModeAltScreenSaveCursor)
}
