package furnace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// grid lays out rows of cells in columns one space apart. Every column but
// the last is as wide as its widest cell; the last takes what is left of
// the width and wraps its items (never splitting one) onto lines of their
// own, indented to the column.
type grid struct {
	head []string // column titles; nil for none
	rows []gridRow
	sep  string // between the last column's items
	// noun is the plural message counting the items ("3 discs"), for a
	// marker that shows none of them.
	noun string
	p    *lang.Printer // the reader's language
	// below draws the last column's items under their row, indented,
	// across the whole width, instead of in a column.
	below bool
}

type gridRow struct {
	cells []string // every column but the last
	items []string // the last column
	// more is the key a marker of items left out names: "i" (every card
	// on the board) when empty; "y" for the viewer's own row.
	more string
}

// lines draws the grid in width w. A row's last column takes at most
// maxLines lines (0: no limit); items that do not fit are counted in a
// "+N more (i)" marker, so nothing is cut silently.
func (g grid) lines(w, maxLines int) []string { return g.layout(w).lines(maxLines) }

// laidGrid is a grid laid out in a width: its head and its rows' cells
// padded to their columns, for lines to draw with as many of the last
// column's lines as each try allows.
type laidGrid struct {
	g      grid
	indent int
	head   string
	rows   []rowKey // maxLines is lines'
	none   bool     // no column
	// least is the width under which no line fits, whatever lines'
	// limit: the head's, or a row's cells'.
	least int
	// split: an item of the last column is wider than the column, so
	// lines must break it at its spaces ("bob's" over "3").
	split bool
}

// layout lays g out in width w.
func (g grid) layout(w int) laidGrid {
	widths, indent := g.columns()
	if widths == nil {
		return laidGrid{none: true}
	}
	l := laidGrid{g: g, indent: indent, rows: make([]rowKey, len(g.rows))}
	lastW := max(8, w-indent)
	if g.head != nil {
		// A last title too wide for its column keeps its first words:
		// "cards (⇧ upgraded)" becomes "cards".
		last := g.head[len(g.head)-1]
		for _, cut := range []string{" (", ",", " "} {
			if before, _, ok := strings.Cut(last, cut); ok && kit.Width(last) > lastW {
				last = before
			}
		}
		if g.below {
			last = ""
		}
		l.head = strings.TrimRight(pad(widths, g.head, last), " ")
		l.least = kit.Width(l.head)
	}
	tag := g.p.Tag()
	for i, r := range g.rows {
		padded := pad(widths, r.cells, "")
		l.rows[i] = rowKey{tag, padded, strings.Join(r.items, "\x00"), len(r.items), g.sep, g.noun, r.more,
			lastW, 0, g.below}
		l.least = max(l.least, kit.Width(strings.TrimRight(padded, " ")))
		l.split = l.split || slices.ContainsFunc(r.items, func(it string) bool { return kit.Width(it) > lastW })
	}
	return l
}

// lines draws the laid grid, a row's last column in at most maxLines
// lines (0: no limit).
func (l laidGrid) lines(maxLines int) []string {
	if l.none {
		return nil
	}
	n := len(l.rows)
	if l.g.head != nil {
		n++
	}
	out := make([]string, 0, n)
	if l.g.head != nil {
		out = append(out, l.head)
	}
	for i, r := range l.g.rows {
		out = append(out, l.g.rowLines(r, l.rows[i], l.indent, maxLines)...)
	}
	return out
}

// pad is cells in columns of widths, each a space wider, then last.
func pad(widths []int, cells []string, last string) string {
	var b strings.Builder
	n := len(last)
	for i, wd := range widths {
		n += wd + 1
		if i < len(cells) {
			n += len(cells[i]) // its styles' bytes
		}
	}
	b.Grow(n)
	for i, wd := range widths {
		c := ""
		if i < len(cells) {
			c = cells[i]
		}
		b.WriteString(c)
		for k := wd - kit.Width(c) + 1; k > 0; k -= len(spaces) {
			b.WriteString(spaces[:min(k, len(spaces))])
		}
	}
	b.WriteString(last)
	return b.String()
}

const spaces = "                                "

// rowLines are a row's lines: the same row is drawn again for each way
// a board tries (maxLines, the notation of the other rows), for each
// screen of a table, and after each move that left it as it was. key
// holds all that rowLinesOf reads (indent follows from its padded
// cells and below) but maxLines, set here.
func (g grid) rowLines(r gridRow, key rowKey, indent, maxLines int) []string {
	key.maxLines = maxLines
	return gridRows.Get(key, func() []string { return g.rowLinesOf(r, key.padded, indent, key.lastW, maxLines) })
}

// gridRows are rowLines' lines. Shared: copied, never written to.
var gridRows = kit.NewShared[rowKey, []string](1024)

type rowKey struct {
	tag             lang.Tag
	padded, items   string
	count           int // of items: none and one empty join alike
	sep, noun, more string
	lastW, maxLines int
	below           bool // with padded, where the items start
}

func (g grid) rowLinesOf(r gridRow, padded string, indent, lastW, maxLines int) []string {
	wrapped := wrapItems(g.p, r.items, g.sep, lastW, maxLines, g.noun)
	if r.more != "" {
		for i, l := range wrapped {
			wrapped[i] = strings.Replace(l, " (i)", " ("+r.more+")", 1)
		}
	}
	out := make([]string, 0, len(wrapped)+1)
	if g.below {
		out = append(out, strings.TrimRight(padded, " "))
	} else {
		out = append(out, strings.TrimRight(padded+wrapped[0], " "))
		wrapped = wrapped[1:]
	}
	for _, l := range wrapped {
		out = append(out, strings.Repeat(" ", indent)+l)
	}
	return out
}

// columns are the widths of every column but the last, and where the
// last starts; nil for a grid with no column.
func (g grid) columns() (widths []int, indent int) {
	n := len(g.head)
	for _, r := range g.rows {
		n = max(n, len(r.cells)+1)
	}
	if n == 0 {
		return nil, 0
	}
	widths = make([]int, n-1)
	measure := func(cells []string) {
		for i, c := range cells {
			if i < len(widths) {
				widths[i] = max(widths[i], kit.Width(c))
			}
		}
	}
	if g.head != nil {
		measure(g.head[:len(g.head)-1])
	}
	for _, r := range g.rows {
		measure(r.cells)
	}
	for _, wd := range widths {
		indent += wd + 1
	}
	if g.below {
		indent = 4
	}
	return widths, indent
}

// wrapItems wraps items joined by sep into lines of width w, never
// splitting an item unless it is wider than w alone (then it is wrapped at
// its spaces on lines of its own). At most maxLines lines (0: no limit):
// when some items do not fit, the last line ends with "+N more (i)", i
// being the key of the card reference, which lists them all; when none
// fits beside it, the marker counts them with the plural message noun
// ("3 cards (i)").
func wrapItems(p *lang.Printer, items []string, sep string, w, maxLines int, noun string) []string {
	lines := joinWrapped(items, sep, w)
	if maxLines <= 0 || len(lines) <= maxLines {
		return lines
	}
	// Drop items from the end until the marker fits. With none left it
	// counts them all: "+3 more" after nothing read as three besides.
	for k := len(items) - 1; k >= 0; k-- {
		more := p.N("furnace.count.more", len(items)-k) + " (i)"
		if k == 0 && noun != "" {
			more = p.N(noun, len(items)) + " (i)"
		}
		if ls := joinWrapped(append(slices.Clone(items[:k]), more), sep, w); len(ls) <= maxLines {
			return ls
		}
	}
	return []string{strconv.Itoa(len(items)) + " (i)"}
}

// wrappedItems are the items joinWrapped wraps, by text and width: a
// market's and a table's cells are the same few texts at every frame of
// every screen. Shared: copied, never written to.
var wrappedItems = kit.NewShared[wrapKey, []string](4096)

type wrapKey struct {
	text string
	w    int
}

func joinWrapped(items []string, sep string, w int) []string {
	var lines []string
	cur := ""
	for _, it := range items {
		switch {
		case kit.Width(it) > w:
			if cur != "" {
				lines = append(lines, cur)
			}
			lines = append(lines, wrappedItems.Get(wrapKey{it, w}, func() []string { return wrap(it, w) })...)
			cur = ""
		case cur == "":
			cur = it
		case kit.Width(cur+sep+it) > w:
			// A chain's arrow, or the > between discs, carries over to
			// the next line, so the row still reads as one list in order.
			lines = append(lines, cur)
			cur = it
			if mark := strings.TrimSpace(sep); mark == "→" || mark == ">" {
				cur = mark + " " + it
			}
		default:
			cur += sep + it
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}
