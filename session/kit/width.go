package kit

import (
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// Width is the number of cells s takes on a terminal, exactly as
// ansi.StringWidth counts them with the x/ansi that go.mod pins: escape
// sequences take none, a printable ASCII character one, a grapheme
// cluster that starts with any other character its display width. Every
// line of every frame is measured, some several times, and ansi reads
// every byte through its parser and every other character through a
// grapheme segmenter. Width counts a run of printable ASCII in one loop,
// and a rune frames are made of (Latin to Hebrew, and U+2000 to U+2BFF:
// punctuation, arrows, box drawing, shapes, symbols) followed by an ASCII
// byte or the end from a table: Unicode's grapheme rules join a character
// to an ASCII one after it only for CR LF, or when it is a Prepend
// character (all of them at U+0600 or above), so such a rune is a cluster
// of its own. The rest goes as ansi would take it.
func Width(s string) int {
	width := 0
	state := parser.GroundState
	for i := 0; i < len(s); i++ {
		c := s[i]
		if state == parser.GroundState {
			if c >= ' ' && c < 0x7f {
				j := i + 1
				for j < len(s) && s[j] >= ' ' && s[j] < 0x7f {
					j++
				}
				width += j - i
				i = j - 1
				continue
			}
			if c == 0x1b {
				if n := csiLen(s[i:]); n > 0 {
					i += n - 1 // a style: no cells
					continue
				}
			}
			if c >= 0x80 {
				r, n := utf8.DecodeRuneInString(s[i:])
				if j := tableIndex(r); j >= 0 && (i+n == len(s) || s[i+n] < 0x80) {
					width += int(runeWidths()[j])
					i += n - 1
					continue
				}
			}
		}
		next, action := parser.Table.Transition(state, c)
		if next == parser.Utf8State {
			cluster, w := ansi.FirstGraphemeCluster(s[i:], ansi.GraphemeWidth)
			width += w
			i += len(cluster) - 1
			state = parser.GroundState
			continue
		}
		if action == parser.PrintAction {
			width++
		}
		state = next
	}
	return width
}

// csiLen is the length of the control sequence s starts with, when it is
// one a frame's styles are made of: ESC [, bytes from 0x20 to 0x3F
// (parameters, intermediates), a final byte from 0x40 to 0x7E; 0 when s
// starts otherwise. From the ground state ansi's parser reads any such
// sequence (dispatched, or ignored when malformed) back to the ground
// state without printing, one byte at a time through its table: a styled
// line's sequences were most of what measuring it cost.
func csiLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c >= 0x20 && c <= 0x3f:
		case c >= 0x40 && c <= 0x7e:
			return j + 1
		default:
			return 0
		}
	}
	return 0
}

// The runes whose widths runeWidths holds: U+0080 to U+05FF, then U+2000
// to U+2BFF.
const (
	lowEnd    = 0x600
	highStart = 0x2000
	highEnd   = 0x2c00
)

// tableIndex is r's place in runeWidths, or -1.
func tableIndex(r rune) int {
	switch {
	case r >= 0x80 && r < lowEnd:
		return int(r - 0x80)
	case r >= highStart && r < highEnd:
		return int(r-highStart) + lowEnd - 0x80
	}
	return -1
}

// runeWidths are the widths ansi gives each rune of the table alone,
// worked out once, when first needed.
var runeWidths = sync.OnceValue(func() []int8 {
	ws := make([]int8, lowEnd-0x80+highEnd-highStart)
	var buf [utf8.UTFMax]byte
	for _, span := range [][2]rune{{0x80, lowEnd}, {highStart, highEnd}} {
		for r := span[0]; r < span[1]; r++ {
			n := utf8.EncodeRune(buf[:], r)
			_, w := ansi.FirstGraphemeCluster(string(buf[:n]), ansi.GraphemeWidth)
			ws[tableIndex(r)] = int8(w)
		}
	}
	return ws
})
