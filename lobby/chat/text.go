package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText makes what a person typed safe to store and to draw on
// everyone else's terminal: one line of printable text. It is the one
// cleaning for every text from outside the code that reaches a terminal:
// chat lines, the names chat shows, operators' announcements (Notices)
// and the SSH login of a lobby without profiles; a profile's name is held
// to players.CheckName, which refuses what this would remove. It replaces
// invalid UTF-8; removes escape sequences whole (CSI, OSC, DCS, SOS, PM,
// APC, two-character escapes, in their ESC and C1 forms: an OSC 52 would
// write the reader's clipboard, a CSI clear their screen) and every other
// control character; turns tabs and line breaks into spaces; removes the
// bidi controls that reorder text on screen (U+202A–U+202E,
// U+2066–U+2069, the marks U+200E, U+200F, U+061C) and the invisible
// characters that make one text look like another (zero-width space,
// word joiner, byte-order mark, soft hyphen, Hangul fillers, tags); keeps
// a zero-width joiner or non-joiner only between two non-ASCII characters,
// where emoji and scripts such as Persian need it; keeps at most
// maxMarks combining marks on a character; and collapses runs of spaces.
// It runs in one pass, linear in the input.
func CleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(min(len(s), 4096))
	space := false // a space is owed before the next printed character
	marks := 0     // combining marks since the last base character
	prev := rune(0)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if skip := escapeLength(s[i:]); skip > 0 {
			i += skip
			continue
		}
		i += n
		switch {
		case unicode.IsSpace(r): // tabs and line breaks too
			space, marks = b.Len() > 0, 0
			continue
		case unicode.IsControl(r) || invisible(r):
			continue
		case r == '\u200C' || r == '\u200D': // non-joiner, joiner
			next, _ := utf8.DecodeRuneInString(s[i:])
			if prev < utf8.RuneSelf || next < utf8.RuneSelf || space {
				continue
			}
		case unicode.In(r, unicode.Mn, unicode.Me):
			if marks++; marks > maxMarks {
				continue
			}
		default:
			marks = 0
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// maxMarks is how many combining marks CleanText keeps on one character:
// enough for any script (Vietnamese stacks two), too few to pile a line
// of text into the lines above and below it.
const maxMarks = 4

// invisible reports format characters that change how text reads without
// being seen: bidi controls and marks, zero-width and filler characters.
func invisible(r rune) bool {
	switch {
	case r >= '\u202A' && r <= '\u202E', // bidi embeddings and overrides
		r >= '\u2066' && r <= '\u2069',              // bidi isolates
		r == '\u200E', r == '\u200F', r == '\u061C', // bidi marks
		r == '\u200B', r >= '\u2060' && r <= '\u2064', r == '\uFEFF', // zero-width space, word joiner, invisible operators, BOM
		r == '\u00AD', r == '\u180E', r == '\u034F', // soft hyphen, Mongolian vowel separator, grapheme joiner
		r == '\u115F', r == '\u1160', r == '\u3164', r == '\uFFA0', // Hangul fillers
		r >= '\uFFF9' && r <= '\uFFFB', // interlinear annotations
		r >= 0xE0000 && r <= 0xE007F:   // tags
		return true
	}
	return false
}

// escapeLength is the length in bytes of the escape sequence s starts
// with, or 0 when it starts with none. A sequence cut short by the end of
// the text, or by a character that cannot belong to it, ends there.
func escapeLength(s string) int {
	if s == "" {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s)
	switch r {
	case 0x1b: // ESC
		if len(s) == 1 {
			return 1
		}
		switch c := s[1]; {
		case c == '[':
			return 2 + csiLength(s[2:])
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
			return 2 + stringLength(s[2:])
		case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
			k := 1
			for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
				k++
			}
			if k < len(s) && s[k] >= 0x30 && s[k] <= 0x7e {
				k++
			}
			return k
		case c >= 0x30 && c <= 0x7e: // ESC 7, ESC c, ESC M…
			return 2
		}
		return 1
	case 0x9b: // CSI
		return n + csiLength(s[n:])
	case 0x90, 0x98, 0x9d, 0x9e, 0x9f: // DCS, SOS, OSC, PM, APC
		return n + stringLength(s[n:])
	}
	return 0
}

// csiLength is the length of a control sequence's parameters,
// intermediates and final byte.
func csiLength(s string) int {
	for k := 0; k < len(s); k++ {
		switch c := s[k]; {
		case c >= 0x20 && c <= 0x3f:
		case c >= 0x40 && c <= 0x7e:
			return k + 1
		default:
			return k
		}
	}
	return len(s)
}

// stringLength is the length of a control string (OSC, DCS…) up to and
// including its terminator: BEL, ST (ESC \) or the C1 ST. Unterminated,
// it runs to the end, as it would on a terminal.
func stringLength(s string) int {
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case 0x07:
			return k + 1
		case 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2
			}
			return k // another sequence begins
		case 0xc2:
			if k+1 < len(s) && s[k+1] == 0x9c {
				return k + 2
			}
		}
	}
	return len(s)
}
