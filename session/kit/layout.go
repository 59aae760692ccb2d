package kit

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Fit makes block exactly w columns wide and h lines high: long lines are
// cut, short ones padded, extra lines dropped. Every widget passes through
// it, so no widget can break the layout whatever the game state.
func Fit(block string, w, h int) string {
	lines := strings.Split(block, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return FitLines(lines, w)
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
		lw := ansi.StringWidth(l)
		if lw > w {
			lines[i] = ansi.Truncate(l, w-1, "") + "…"
			lw = ansi.StringWidth(lines[i])
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
		for range w - widths[i] {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Columns puts blocks side by side with a one-space gutter; each block is
// fitted to its width and to h lines.
func Columns(h int, widths []int, blocks ...string) string {
	if h <= 0 {
		return ""
	}
	// Fitted, every line of a block is exactly its width: the rows are
	// joined as they are, with none of lipgloss.JoinHorizontal's measuring
	// of every line again (a tenth of a game frame's work).
	rows := make([][]string, len(blocks))
	size := 0
	for i, b := range blocks {
		f := Fit(b, widths[i], h)
		size += len(f) + h
		rows[i] = strings.SplitN(f, "\n", h)
	}
	var out strings.Builder
	out.Grow(size)
	for r := range h {
		if r > 0 {
			out.WriteByte('\n')
		}
		for i := range rows {
			if i > 0 {
				out.WriteByte(' ')
			}
			out.WriteString(rows[i][r])
		}
	}
	return out.String()
}

// WrapItems joins items with sep into lines no wider than w, never
// splitting an item (a card name with a space stays whole).
func WrapItems(prefix string, items []string, sep string, w int) []string {
	return WrapHanging(prefix, strings.Repeat(" ", min(ansi.StringWidth(prefix), 12)), items, sep, w)
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
		if !fresh && ansi.StringWidth(cur+add) > w {
			lines = append(lines, cur)
			cur, add = indent+it, ""
		}
		cur += add
		fresh = false
	}
	return append(lines, cur)
}

// nbHyphen is the non-breaking hyphen, which the wrapping below takes for
// a letter.
const nbHyphen = "\u2011"

// Wrap breaks text into lines no wider than w at its spaces, and only
// there: lipgloss also breaks after a hyphen, which cut card ids
// ("mine-" / "05") in the log and the rules. A word wider than w alone is
// still broken.
func Wrap(text string, w int) string {
	if !strings.Contains(text, "-") {
		return lipgloss.NewStyle().Width(w).Render(text)
	}
	kept := strings.ReplaceAll(text, "-", nbHyphen)
	return strings.ReplaceAll(lipgloss.NewStyle().Width(w).Render(kept), nbHyphen, "-")
}
