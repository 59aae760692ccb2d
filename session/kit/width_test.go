package kit

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWidthIsAnsis holds Width to ansi.StringWidth on strings made to
// catch a shortcut out: ASCII next to combining marks, joiners, emoji,
// wide and variation-selected runes, escape sequences cut anywhere.
func TestWidthIsAnsis(t *testing.T) {
	pieces := []string{"a", "Z", " ", "~", "1", "\x7f", "\t", "\r", "\n", "\r\n", "·", "★", "→", "✗", "♠", "─", "│",
		"\u0301", "\u200d", "\ufe0f", "\ufe0e", "é", "e\u0301", "漢", "字", "👍", "👍🏽", "👩\u200d💻", "🇫🇷", "ᄀ", "ᅡ", "ᆨ",
		"\u0600", "\u0915\u093f", "\u05d0", "\u0591", "\u2500", "\u2028", "\u200b", "\u2b50", "\u2e80", "\u00ad", "\u0085", "\u009b",
		"\x1b[31m", "\x1b[0m", "\x1b[38;5;214m", "\x1b[?25l", "\x1b[1 q", "\x1b[3<m", "\x1b[38:5:1m", "\x1b[1\x01m", "\x1b[1\x7fm", "\x1b[0;1", "\x1b[\x1b[m", "\x1b]8;;http://x\x1b\\", "\x1b", "\x1b[", "\x9b", "\xff", "\xe2\x82"}
	cases := []string{"", "plain", "MARKETPLACE  deck 12 · discard 3", "\x1b[1mbold\x1b[0m and ★3"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range 1 + rnd.IntN(12) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
}

// BenchmarkWidth measures a frame's line, styled, against ansi's.
func BenchmarkWidth(b *testing.B) {
	line := "\x1b[1mMARKETPLACE\x1b[0m\x1b[2m  deck 12 · discard 3\x1b[0m 1 Robotics Lab      \x1b[38;5;214mgear\x1b[0m    2m 1e  ★2"
	b.Run("kit", func(b *testing.B) {
		for b.Loop() {
			Width(line)
		}
	})
	b.Run("ansi", func(b *testing.B) {
		for b.Loop() {
			ansi.StringWidth(line)
		}
	})
}

// TestWidthOfEveryTableRune holds Width to ansi.StringWidth for every rune
// whose width Width takes from its table, between the neighbours that
// could join it to a cluster.
func TestWidthOfEveryTableRune(t *testing.T) {
	for _, span := range [][2]rune{{0x80, lowEnd}, {highStart, highEnd}} {
		for r := span[0]; r < span[1]; r++ {
			for _, s := range []string{string(r), "a" + string(r) + "b", string(r) + "\u0301", "\u0600" + string(r) + "x",
				string(r) + string(r) + " ", "\x1b[1m" + string(r) + "\x1b[0m", "\r" + string(r) + "\n"} {
				if got, want := Width(s), ansi.StringWidth(s); got != want {
					t.Fatalf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
				}
			}
		}
	}
}
