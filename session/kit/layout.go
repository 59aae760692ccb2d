package kit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/cellbuf"
)

// Fit makes block exactly w columns wide and h lines high: long lines are
// cut, short ones padded, extra lines dropped. Every widget passes through
// it, so no widget can break the layout whatever the game state.
func Fit(block string, w, h int) string {
	if fitted(block, w, h) {
		return block // a board's columns are, and copying a frame is garbage
	}
	lines := strings.Split(block, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return FitLines(lines, w)
}

// fitted reports whether block is already h lines of exactly w columns,
// as Fit would make it; it stops at the first line that is not.
func fitted(block string, w, h int) bool {
	if w <= 0 || h <= 0 {
		return false
	}
	n := 0
	for line := range strings.SplitSeq(block, "\n") {
		if n++; n > h || Width(line) != w {
			return false
		}
	}
	return n == h
}

// FitHeight cuts or pads block to h lines, leaving their widths as they
// are: a block placed in a Grid's column, which fits every line to its
// width as it writes it, needs no more than that, and Fit would measure
// every line first (the move menu, at every frame). Fitted to w by
// FitLines it is Fit(block, w, h); "" when h < 1.
func FitHeight(block string, h int) string {
	if h < 1 {
		return ""
	}
	i, n := 0, 1
	for {
		j := strings.IndexByte(block[i:], '\n')
		if j < 0 {
			break
		}
		if n == h {
			return block[:i+j]
		}
		i, n = i+j+1, n+1
	}
	if n == h {
		return block
	}
	return block + strings.Repeat("\n", h-n)
}

// FitLines cuts or pads every line to w columns. Every frame passes
// through it many times, so it measures each line once and builds the
// block in one string of the size it will have.
func FitLines(lines []string, w int) string {
	if w <= 0 {
		return strings.Repeat("\n", max(len(lines)-1, 0))
	}
	var small [64]int
	widths := small[:0]
	n := len(lines)
	for i, l := range lines {
		lw := Width(l)
		if lw > w {
			lines[i], lw = cut(l, w)
		}
		widths = append(widths, lw)
		n += len(lines[i]) + w - lw
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		pad(&b, w-widths[i])
	}
	return b.String()
}

// Columns puts columns side by side with a one-space gutter; each column
// is its parts stacked (as joined with line breaks) and fitted to its
// width and to h lines. A column comes in parts so that a board need not
// join them into a string of its own only for Columns to copy it again.
func Columns(h int, widths []int, cols ...[]string) string {
	return string(Grid{H: h, Widths: widths, Cols: cols}.Append(nil))
}

// A Grid is columns as Columns lays them out, not yet written: a board
// gives its frame as one (Laid), and the screen writes it straight into
// the frame it is drawing rather than into a string of the board's own
// first (the largest garbage of a game frame, drawn at every key).
type Grid struct {
	H      int
	Widths []int
	Cols   [][]string
	// Fitted marks, per column, the parts whose every line is already
	// exactly the column's width (FitLines): bit i for part i. They are
	// copied as they are rather than measured again, a line at a time,
	// at every frame (half of a key's frame): a board fits the parts it
	// keeps from frame to frame once, as it draws them. nil: none.
	Fitted []uint64
}

// String is the grid as Columns writes it.
func (g Grid) String() string { return string(g.Append(nil)) }

// Append appends the grid, as Columns writes it, to dst.
func (g Grid) Append(dst []byte) []byte {
	if g.H <= 0 {
		return dst
	}
	// Each line is cut or padded to its column's width as its row is
	// written, measured once: no block is fitted into a string of its own
	// first, and nothing is measured again as lipgloss.JoinHorizontal
	// would (a tenth of a game frame's work). The frames' buffer is
	// reused, so it is not sized first.
	var small [4]lineCursor
	cols := small[:0]
	for i, parts := range g.Cols {
		c := lineCursor{parts: parts}
		if i < len(g.Fitted) {
			c.fitted = g.Fitted[i]
		}
		cols = append(cols, c)
	}
	for r := range g.H {
		if r > 0 {
			dst = append(dst, '\n')
		}
		for i := range cols {
			if i > 0 {
				dst = append(dst, ' ')
			}
			line, fitted := cols[i].next()
			if fitted && g.Widths[i] > 0 {
				dst = append(dst, line...)
				continue
			}
			line, n := fitLine(line, g.Widths[i])
			dst = appendPad(append(dst, line...), n)
		}
	}
	return dst
}

// lineCursor reads the lines of parts as if joined with line breaks, and
// "" once they are all read.
type lineCursor struct {
	parts  []string
	rest   string
	more   bool   // rest holds the current part's next line
	fitted uint64 // Grid.Fitted's bits for parts, shifted as they are read
	in     bool   // the current part is fitted
}

// next is the next line, and whether its part is fitted.
func (c *lineCursor) next() (string, bool) {
	if !c.more {
		if len(c.parts) == 0 {
			return "", false
		}
		c.rest, c.parts, c.more = c.parts[0], c.parts[1:], true
		c.in, c.fitted = c.fitted&1 != 0, c.fitted>>1
	}
	line, rest, more := strings.Cut(c.rest, "\n")
	c.rest, c.more = rest, more
	return line, c.in
}

// A Row is one block of a screen for Rows: its text and the lines it
// takes. Fitted says the text is already exactly w columns wide and H
// lines high, as a board's Draw is: Rows copies it without measuring its
// lines again (a game frame's body is nine lines in ten of it). Grid,
// when it is set, is the row instead of Text: a board's columns, H lines
// of w, written in place.
type Row struct {
	Text   string
	H      int
	Fitted bool
	Grid   *Grid
}

// Rows stacks rows w columns wide, each fitted to its own number of
// lines: what joining each row's Fit with line breaks gives, written in
// one string rather than fitted one by one and joined (a screen's
// header, body and bars).
func Rows(w int, rows ...Row) string { return string(AppendRows(nil, w, rows...)) }

// AppendRows appends what Rows writes to dst: a screen draws its frame
// into a buffer the server reuses, not into a string of its own.
func AppendRows(dst []byte, w int, rows ...Row) []byte {
	for i, row := range rows {
		if i > 0 {
			dst = append(dst, '\n')
		}
		if row.Grid != nil {
			dst = row.Grid.Append(dst)
			continue
		}
		rest, more := row.Text, true
		for r := range row.H {
			if r > 0 {
				dst = append(dst, '\n')
			}
			line, n := "", 0
			if more {
				line, rest, more = strings.Cut(rest, "\n")
			}
			if !row.Fitted {
				line, n = fitLine(line, w)
			}
			dst = appendPad(append(dst, line...), n)
		}
	}
	return dst
}

// WriteLine writes line to b cut or padded to w columns, as FitLines
// fits each of its lines: for a block written fitted rather than written
// and fitted again.
func WriteLine(b *strings.Builder, line string, w int) {
	line, n := fitLine(line, w)
	b.WriteString(line)
	pad(b, n)
}

// spaces are what pad writes from.
const spaces = "                                                                "

// pad writes n spaces to b, a run at a time rather than a byte at a time.
func pad(b *strings.Builder, n int) {
	for ; n > len(spaces); n -= len(spaces) {
		b.WriteString(spaces)
	}
	if n > 0 {
		b.WriteString(spaces[:n])
	}
}

// appendPad is pad for a frame written into a buffer.
func appendPad(b []byte, n int) []byte {
	for ; n > len(spaces); n -= len(spaces) {
		b = append(b, spaces...)
	}
	if n > 0 {
		b = append(b, spaces[:n]...)
	}
	return b
}

// fitLine is line cut to w columns (with a mark), and the spaces that pad
// it to w, as FitLines fits it.
func fitLine(line string, w int) (string, int) {
	if w <= 0 {
		return "", 0
	}
	lw := Width(line)
	if lw > w {
		line, lw = cut(line, w)
	}
	return line, max(0, w-lw)
}

// cut is line, wider than w, cut to w columns with a mark, and its width.
// A line too wide for its place is mostly cut again at every frame (a
// waiting seat's idle line beside an 80-column board, at every key), and
// cutting it was a fifth of such a frame: the cuts are kept, for every
// screen, by the line itself and the width.
func cut(line string, w int) (string, int) {
	c := cuts.Get(cutKey{line, w}, func() cutLine {
		s := ansi.Truncate(line, w-1, "") + "…"
		return cutLine{s, Width(s)}
	})
	return c.line, c.w
}

var cuts = NewShared[cutKey, cutLine](1024)

type cutKey struct {
	line string
	w    int
}

type cutLine struct {
	line string
	w    int
}

// WrapItems joins items with sep into lines no wider than w, never
// splitting an item (a card name with a space stays whole).
func WrapItems(prefix string, items []string, sep string, w int) []string {
	return WrapHanging(prefix, strings.Repeat(" ", min(Width(prefix), 12)), items, sep, w)
}

// WrapHanging is WrapItems with the continuation lines' indent given.
func WrapHanging(prefix, indent string, items []string, sep string, w int) []string {
	var lines []string
	cur := prefix
	fresh := true
	for _, it := range items {
		add := it
		if !fresh {
			add = sep + it
		}
		if !fresh && Width(cur+add) > w {
			lines = append(lines, cur)
			cur, add = indent+it, ""
		}
		cur += add
		fresh = false
	}
	return append(lines, cur)
}

// nbHyphen is the non-breaking hyphen, which the wrapping below takes for
// a letter; nbSpace the no-break space, which it does not break at.
const (
	nbHyphen = "\u2011"
	nbSpace  = "\u00a0"
)

// glueNumbers makes each space between a number and the word or number
// after it a no-break space, so a line never ends there: a count keeps
// its noun ("1 энергии") and dice their list ("3 6 5 5"). ok is false,
// and nothing allocated, when text has none.
func glueNumbers(text string) (glued string, ok bool) {
	var b strings.Builder
	last := 0 // text[:last] is in b
	for i := 1; i+1 < len(text); i++ {
		if text[i] != ' ' || text[i-1] < '0' || text[i-1] > '9' {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(text[i+1:]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			continue
		}
		if !ok {
			b.Grow(len(text) + 8)
			ok = true
		}
		b.WriteString(text[last:i])
		b.WriteString(nbSpace)
		last = i + 1
	}
	if !ok {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// Wrap breaks text into lines no wider than w at its spaces, and only
// there: lipgloss also breaks after a hyphen, which cut card ids
// ("mine-" / "05") in the log and the rules; and never at a space after a
// number, which split a count from its noun. A word wider than w alone is
// still broken. Every line is padded to the widest, at least w: what
// lipgloss.NewStyle().Width(w).Render gives (tabs made four spaces, the
// text wrapped by cellbuf, the lines padded), without a style's work of
// looking up every property it does not set, which made wrapping the
// log's new lines and the marketplace's card texts most of their cost.
func Wrap(text string, w int) string {
	hyphens := strings.Contains(text, "-")
	if hyphens {
		text = strings.ReplaceAll(text, "-", nbHyphen)
	}
	text, numbers := glueNumbers(text)
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\t", "    "), "\r\n", "\n")
	if w > 0 {
		text = cellbuf.Wrap(text, w, "")
	}
	lines := strings.Split(text, "\n")
	widest := max(w, 0)
	for _, l := range lines {
		widest = max(widest, Width(l))
	}
	var b strings.Builder
	b.Grow(len(text) + len(lines)*widest)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		pad(&b, widest-Width(l))
	}
	out := b.String()
	if hyphens {
		out = strings.ReplaceAll(out, nbHyphen, "-")
	}
	if numbers {
		out = strings.ReplaceAll(out, nbSpace, " ")
	}
	return out
}
