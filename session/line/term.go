package line

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/smokestack/smokestack/internal/lang"

	"github.com/smokestack/smokestack/session/kit"
)

// prompt is shown, on a terminal, when the mode waits for a command.
const prompt = "> "

// maxHeld bounds the events held while the player types: past it the
// oldest go, and the log keeps them.
const maxHeld = 100

// term is the session's output. Events (event) and the answers to
// commands (answer) are written as whole lines. On a terminal (echo) the
// player's typing is echoed after a prompt; an event that comes while a
// line is half typed waits until Enter, the way line-mode chat clients
// do, and one that comes at an empty prompt is written over the prompt,
// which is shown again under it. So the line being typed is never broken,
// and no escape sequence is needed: "\r" alone returns to the prompt.
type term struct {
	w     io.Writer
	echo  bool
	ed    editor
	held  []string // events waiting for Enter
	shown bool     // the prompt is on screen, with what is typed after it
	buf   []byte   // what is written next
	// words says the symbols the screens draw in the player's language.
	words *strings.Replacer
}

// sayWords makes the replacer that words the screens' symbols in p's
// language: a screen reader would read "rightwards arrow", or nothing.
func sayWords(p *lang.Printer) *strings.Replacer {
	into := " " + p.T("line.sym.into") + " "
	return strings.NewReplacer(
		" · ", ", ", "·", ",", "• ", "", "•", "",
		" → ", into, "→", into,
		"★", p.T("line.sym.prestige")+" ", "×", p.T("line.sym.times")+" ",
		"✓", " "+p.T("line.sym.done"), "⇧", " "+p.T("line.sym.upgraded"), "≤", p.T("line.sym.at_most")+" ")
}

func newTerm(w io.Writer, echo bool, maxLine int) *term {
	t := &term{w: w, echo: echo}
	t.ed = editor{echo: echo, max: maxLine, out: t.raw}
	return t
}

// raw writes the editor's echo at once.
func (t *term) raw(b []byte) { _, _ = t.w.Write(b) }

// answer writes lines answering a command, or said at once.
func (t *term) answer(lines ...string) {
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		for _, w := range wrap(t.words.Replace(l)) {
			t.buf = append(t.buf, w...)
			t.buf = append(t.buf, '\n')
		}
	}
}

// event says lines as they happen: at once when nothing is half typed,
// after the line being typed otherwise.
func (t *term) event(lines ...string) {
	if t.echo && t.ed.typing() {
		for _, l := range lines {
			if len(t.held) == maxHeld {
				t.held = t.held[1:]
			}
			t.held = append(t.held, l)
		}
		return
	}
	if t.shown && len(lines) > 0 {
		t.buf = append(t.buf, '\r') // over the prompt, which comes again below
		t.shown = false
	}
	t.answer(lines...)
}

// flush writes what events said, and the prompt again under them.
func (t *term) flush() {
	if len(t.buf) == 0 {
		return
	}
	if t.echo && !t.shown && !t.ed.typing() {
		t.buf = append(t.buf, prompt...)
		t.shown = true
	}
	_, _ = t.w.Write(t.buf)
	t.buf = t.buf[:0]
}

// done ends a command's answer: the events held meanwhile, then the
// prompt.
func (t *term) done() {
	t.shown = false
	for _, l := range t.held {
		t.answer(l)
	}
	t.held = t.held[:0]
	if t.echo {
		t.buf = append(t.buf, prompt...)
		t.shown = true
	}
	_, _ = t.w.Write(t.buf)
	t.buf = t.buf[:0]
}

// wrap makes text lines the player can read: no escape sequence or
// control character, the table's dots between parts made commas, and
// wrapped at Width columns on spaces (a longer word keeps a line of its
// own).
func wrap(text string) []string {
	text = clean(text)
	if kit.Width(text) <= Width {
		return []string{text}
	}
	var out []string
	cur := ""
	for _, word := range strings.Fields(text) {
		switch {
		case cur == "":
			cur = word
		case kit.Width(cur)+1+kit.Width(word) <= Width:
			cur += " " + word
		default:
			out = append(out, cur)
			cur = "  " + word // a continued line is indented
		}
	}
	return append(out, cur)
}

// clean takes out of text what a line may not carry: escape sequences,
// control characters, runs of spaces.
func clean(text string) string {
	text = ansi.Strip(text)
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, text)
	return strings.Join(strings.Fields(text), " ")
}

// sentence is text begun with a capital, for a header's words that open
// a line.
func sentence(text string) string {
	r, n := utf8.DecodeRuneInString(text)
	return string(unicode.ToUpper(r)) + text[n:]
}

// typedLine is one line the player typed.
type typedLine struct {
	text    string
	tooLong bool
}

// editor makes lines of the player's input. On a terminal in raw mode
// (echo) it echoes what is typed and edits it: backspace takes back a
// character, ^U the line, ^W a word; escape sequences (arrows, function
// keys, pasted brackets) are read and dropped, never echoed. A line
// longer than max is refused whole.
type editor struct {
	echo bool
	max  int
	out  func([]byte)
	line []byte
	over bool // the line has passed max: it is refused at its end
	esc  int  // reading an escape sequence: 1 after ESC, 2 inside CSI
	cr   bool // the last byte was "\r": a "\n" after it ends nothing
}

// typing reports whether a line is half typed.
func (e *editor) typing() bool { return len(e.line) > 0 || e.over }

// feed takes a chunk of input and returns the lines it completes.
func (e *editor) feed(chunk []byte) []typedLine {
	var done []typedLine
	var echo []byte
	for _, b := range chunk {
		cr := e.cr
		e.cr = false
		switch {
		case e.esc == 1:
			e.esc = 0
			if b == '[' || b == 'O' {
				e.esc = 2
			}
			continue
		case e.esc == 2:
			if b >= 0x40 && b <= 0x7e {
				e.esc = 0
			}
			continue
		}
		switch b {
		case 0x1b:
			e.esc = 1
		case '\n', '\r':
			e.cr = b == '\r'
			if b == '\n' && cr {
				continue
			}
			if e.echo {
				echo = append(echo, '\n')
			}
			done = append(done, typedLine{text: e.text(), tooLong: e.over})
			e.line, e.over = e.line[:0], false
		case 0x7f, 0x08: // backspace
			if len(e.line) > 0 {
				_, n := utf8.DecodeLastRune(e.line)
				e.line = e.line[:len(e.line)-n]
				echo = append(echo, "\b \b"...)
			}
		case 0x15: // ^U
			for range utf8.RuneCount(e.line) {
				echo = append(echo, "\b \b"...)
			}
			e.line, e.over = e.line[:0], false
		case 0x17: // ^W
			for len(e.line) > 0 && e.line[len(e.line)-1] == ' ' {
				e.line = e.line[:len(e.line)-1]
				echo = append(echo, "\b \b"...)
			}
			for len(e.line) > 0 && e.line[len(e.line)-1] != ' ' {
				_, n := utf8.DecodeLastRune(e.line)
				e.line = e.line[:len(e.line)-n]
				echo = append(echo, "\b \b"...)
			}
		case 0x03, 0x04: // ^C, ^D: leave, as quit
			if e.echo {
				echo = append(echo, '\n')
				done = append(done, typedLine{text: "quit"})
				e.line, e.over = e.line[:0], false
			}
		default:
			if b < 0x20 {
				continue // other control keys do nothing
			}
			if len(e.line) >= e.max {
				e.over = true
				continue
			}
			e.line = append(e.line, b)
			echo = append(echo, b)
		}
	}
	if e.echo && len(echo) > 0 {
		e.out(echo)
	}
	return done
}

// text is the line typed, as valid UTF-8.
func (e *editor) text() string { return strings.ToValidUTF8(string(e.line), "") }
