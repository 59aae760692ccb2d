package server

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// term is a small terminal emulator for what frames writes: text, CR, LF,
// cursor positions, erasing, SGR (ignored) and private modes. It fails
// the test on anything else, and on any line wrap or scroll, which a
// frame must never cause.
type term struct {
	t        *testing.T
	w, h     int
	cells    [][]string // "" is a blank cell, and the right half of a wide one
	row, col int
	wrapNext bool // the cursor sits past the last column
	modes    map[string]bool
}

func newTerm(t *testing.T, w, h int) *term {
	tm := &term{t: t, w: w, h: h, modes: map[string]bool{}}
	tm.cells = make([][]string, h)
	for i := range tm.cells {
		tm.cells[i] = make([]string, w)
	}
	return tm
}

func (tm *term) Write(p []byte) (int, error) {
	tm.t.Helper()
	s := string(p)
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "\x1b["):
			end := strings.IndexFunc(s[2:], func(r rune) bool { return r >= 0x40 && r <= 0x7e })
			if end < 0 {
				tm.t.Fatalf("unterminated CSI in %q", s)
			}
			tm.csi(s[2:2+end], s[2+end])
			s = s[3+end:]
		case s[0] == '\x1b':
			tm.t.Fatalf("unexpected escape %q", s[:min(len(s), 10)])
		case s[0] == '\r':
			tm.col, tm.wrapNext = 0, false
			s = s[1:]
		case s[0] == '\n':
			if tm.row == tm.h-1 {
				tm.t.Fatalf("a line feed on the last row scrolls the screen")
			}
			tm.row++
			s = s[1:]
		default:
			g, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
			if tm.wrapNext || tm.col+w > tm.w {
				tm.t.Fatalf("%q at row %d col %d wraps the line", g, tm.row, tm.col)
			}
			tm.cells[tm.row][tm.col] = g
			for i := 1; i < w; i++ {
				tm.cells[tm.row][tm.col+i] = ""
			}
			tm.col += w
			if tm.col == tm.w {
				tm.col, tm.wrapNext = tm.w-1, true
			}
			s = s[len(g):]
		}
	}
	return len(p), nil
}

func (tm *term) csi(params string, final byte) {
	tm.t.Helper()
	switch {
	case strings.HasPrefix(params, "?") && (final == 'h' || final == 'l'):
		tm.modes[params[1:]] = final == 'h'
	case final == 'm': // colours and attributes
	case final == 'H':
		row, col := 1, 1
		if params != "" {
			r, c, _ := strings.Cut(params, ";")
			row, _ = strconv.Atoi(r)
			if c != "" {
				col, _ = strconv.Atoi(c)
			}
		}
		if row < 1 || row > tm.h || col < 1 || col > tm.w {
			tm.t.Fatalf("cursor moved off the screen, to %d;%d", row, col)
		}
		tm.row, tm.col, tm.wrapNext = row-1, col-1, false
	case final == 'K' && params == "":
		clear(tm.cells[tm.row][tm.col:])
		tm.wrapNext = false
	case final == 'K' && params == "2":
		clear(tm.cells[tm.row])
	case final == 'J' && params == "":
		clear(tm.cells[tm.row][tm.col:])
		for _, r := range tm.cells[tm.row+1:] {
			clear(r)
		}
	case final == 'J' && params == "2":
		for _, r := range tm.cells {
			clear(r)
		}
	default:
		tm.t.Fatalf("unexpected sequence CSI %q %c", params, final)
	}
}

// screen is the text on the screen, a line a row, without trailing blanks.
func (tm *term) screen() string {
	var b strings.Builder
	for _, r := range tm.cells {
		line := ""
		for _, c := range r {
			if c == "" {
				c = " "
			}
			line += c
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// want is what view looks like on a w×h screen: its last h lines, cut to
// w cells, without styles.
func want(view string, w, h int) string {
	lines := strings.Split(view, "\n")
	lines = lines[max(0, len(lines)-h):]
	var b strings.Builder
	for i := range h {
		line := ""
		if i < len(lines) {
			// The emulator shows a wide rune as the rune then a blank.
			for s := ansi.Strip(ansi.Truncate(lines[i], w, "")); s != ""; {
				g, gw := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
				line += g + strings.Repeat(" ", max(gw-1, 0))
				s = s[len(g):]
			}
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// randomView is h0 lines of styled text, some wide, some too wide.
func randomView(r *rand.Rand, w, h0 int) string {
	words := []string{"gear", "\x1b[1;38;5;208mBIOLAB\x1b[0m", "★", "炉", "·", "\x1b[2mdim\x1b[0m", "wrench", "  ", "🏭"}
	lines := make([]string, h0)
	for i := range lines {
		var b strings.Builder
		for range r.IntN(w / 3) {
			b.WriteString(words[r.IntN(len(words))] + " ")
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// Whatever the frames, the screen shows the newest view: changed lines
// rewritten, taller frames cut from the top, wider lines cut at the
// edge, shorter frames cleared below, a resize repainted whole; an
// unchanged view writes nothing.
func TestFramesDraw(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { framesDraw(t, seed) })
	}
}

func framesDraw(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 2))
	w, h := 40, 12
	tm := newTerm(t, w, h)
	f := &frames{out: tm, width: w, height: h, full: true}
	view := randomView(r, w, h)
	f.draw(ansi.SetModeAltScreenSaveCursor+ansi.EraseEntireScreen, view)
	if got, want := tm.screen(), want(view, w, h); got != want {
		t.Fatalf("first frame:\n%s\nwant:\n%s", got, want)
	}
	for i := range 400 {
		lines := strings.Split(view, "\n")
		resized := false
		switch r.IntN(6) {
		case 0: // one line changes
			lines[r.IntN(len(lines))] = randomView(r, w, 1)
		case 1: // a few
			for range 3 {
				lines[r.IntN(len(lines))] = randomView(r, w, 1)
			}
		case 2: // taller or shorter
			lines = strings.Split(randomView(r, w, 1+r.IntN(2*h)), "\n")
		case 3: // nothing
		case 4: // a resize
			w, h, resized = 20+r.IntN(40), 5+r.IntN(20), true
			tm = newTerm(t, w, h) // the emulator keeps no old content: a repaint must cover it
			tm.cells[0][0] = "X"  // nor may it rely on a blank screen
			f.out = tm
			if _, cmd := (&onChange{inner: stubModel{}, f: f}).Update(tea.WindowSizeMsg{Width: w, Height: h}); cmd != nil {
				t.Fatal("a resize returned a command")
			}
		case 5: // a line grows past the edge
			lines[r.IntN(len(lines))] = strings.Repeat("wide 炉 ", w)
		}
		next := strings.Join(lines, "\n")
		var out bytes.Buffer
		f.out = io2(tm, &out)
		f.draw("", next)
		if got, want := tm.screen(), want(next, w, h); got != want {
			t.Fatalf("frame %d:\n%s\nwant:\n%s", i, got, want)
		}
		if next == view && !resized && out.Len() != 0 {
			t.Fatalf("frame %d: an unchanged view wrote %q", i, out.String())
		}
		view = next
	}
}

// io2 writes to both.
func io2(a, b interface{ Write([]byte) (int, error) }) writerFunc {
	return func(p []byte) (int, error) {
		b.Write(p)
		return a.Write(p)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// One changed line costs that line and a cursor move, not the screen.
func TestFramesBytes(t *testing.T) {
	var out bytes.Buffer
	f := &frames{out: &out, width: 120, height: 40, full: true}
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = fmt.Sprintf("\x1b[1mline %d\x1b[0m of the board", i)
	}
	f.draw("", strings.Join(lines, "\n"))
	out.Reset()
	lines[17] = "\x1b[1mline 17\x1b[0m changed"
	f.draw("", strings.Join(lines, "\n"))
	if want := "\x1b[18;1H" + lines[17] + "\x1b[K"; out.String() != want {
		t.Errorf("one changed line wrote %q, want %q", out.String(), want)
	}
	out.Reset()
	lines[18], lines[20] = "next", "two below"
	f.draw("", strings.Join(lines, "\n"))
	if want := "\x1b[19;1Hnext\x1b[K\r\n\r\ntwo below\x1b[K"; out.String() != want {
		t.Errorf("two changed lines wrote %q, want %q", out.String(), want)
	}
}

// A burst of updates is drawn as one frame at the end of the gap, with
// the newest view; an update after a quiet spell is drawn at once.
func TestFramesBurst(t *testing.T) {
	var out bytes.Buffer
	m := &counter{}
	f := newFrames(&out, 40, 10)
	root := f.onChange(m)
	sent := make(chan tea.Msg, 10)
	f.send = func(msg tea.Msg) { sent <- msg }
	root.Init()
	if !strings.Contains(out.String(), "count 0") || !strings.Contains(out.String(), ansi.SetModeAltScreenSaveCursor) {
		t.Fatalf("Init drew %q", out.String())
	}
	out.Reset()
	root.Update(tea.KeyMsg{}) // right after the first frame: put off
	root.Update(tea.KeyMsg{})
	root.Update(tea.KeyMsg{})
	if out.Len() != 0 {
		t.Fatalf("a burst drew at once: %q", out.String())
	}
	var msg tea.Msg
	select {
	case msg = <-sent:
	case <-time.After(time.Second):
		t.Fatal("the put-off frame never came")
	}
	root.Update(msg)
	if got := out.String(); !strings.Contains(got, "count 3") || strings.Contains(got, "count 1") {
		t.Fatalf("the burst drew %q, want count 3 only", got)
	}
	if len(sent) != 0 {
		t.Fatalf("the burst asked for %d more frames", len(sent))
	}
	f.last = time.Now().Add(-2 * minFrameGap) // a quiet spell since the last frame
	out.Reset()
	root.Update(tea.KeyMsg{})
	if !strings.Contains(out.String(), "count 4") {
		t.Errorf("an update after a quiet spell was not drawn at once: %q", out.String())
	}
	out.Reset()
	f.restore()
	for _, seq := range []string{ansi.ResetModeAltScreenSaveCursor, ansi.ShowCursor, ansi.ResetModeMouseButtonEvent, ansi.ResetModeBracketedPaste} {
		if !strings.Contains(out.String(), seq) {
			t.Errorf("restore wrote %q, without %q", out.String(), seq)
		}
	}
}

type counter struct{ n int }

func (c *counter) Init() tea.Cmd                       { return nil }
func (c *counter) Update(tea.Msg) (tea.Model, tea.Cmd) { c.n++; return c, nil }
func (c *counter) View() string                        { return fmt.Sprintf("count %d", c.n) }

type stubModel struct{}

func (stubModel) Init() tea.Cmd                       { return nil }
func (stubModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return stubModel{}, nil }
func (stubModel) View() string                        { return "" }

// What the model writes beside its view (a window title, a bell) goes
// out with the frame its update draws, in the same write; and alone
// when the view did not change.
func TestFramesCarryTheModelsWrites(t *testing.T) {
	var out writes
	f := newFrames(&out, 40, 10)
	m := &titled{counter: counter{}, term: f}
	root := f.onChange(m)
	root.Init()
	f.last = time.Time{} // no gap to wait out
	m.title = "your move"
	root.Update(tea.KeyMsg{})
	if len(out) != 2 {
		t.Fatalf("an update that set the title wrote %d times, want once: %q", len(out)-1, out)
	}
	got, title := out[1], ansi.SetWindowTitle("your move")
	if !strings.HasPrefix(got, title) || !strings.Contains(got, "count 1") {
		t.Fatalf("the frame wrote %q, want the title, then count 1", got)
	}
	f.last = time.Time{}
	m.title, m.still = "your move · again", true
	root.Update(tea.KeyMsg{})
	if len(out) != 3 || out[2] != ansi.SetWindowTitle("your move · again") {
		t.Fatalf("a title with the view unchanged wrote %q, want the title alone", out[2:])
	}
	f.last = time.Time{}
	m.title = ""
	root.Update(tea.KeyMsg{})
	if len(out) != 3 {
		t.Fatalf("an update that changed nothing wrote %q", out[3:])
	}
}

// writes keeps each write apart.
type writes []string

func (w *writes) Write(p []byte) (int, error) {
	*w = append(*w, string(p))
	return len(p), nil
}

// titled is a counter that, at each update, writes the title it is
// given to its terminal, and with still set stops counting.
type titled struct {
	counter
	term  io.Writer
	title string
	still bool
}

func (m *titled) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.title != "" {
		_, _ = io.WriteString(m.term, ansi.SetWindowTitle(m.title))
	}
	if m.still {
		return m, nil
	}
	m.counter.Update(msg)
	return m, nil
}
