package chat

import (
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func TestCleanText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text", "good game, well played", "good game, well played"},
		{"OSC 52 clipboard write, BEL-terminated", "hi\x1b]52;c;cm0gLXJmIH4=\x07 there", "hi there"},
		{"OSC 52 clipboard write, ST-terminated", "hi\x1b]52;c;cm0gLXJmIH4=\x1b\\ there", "hi there"},
		{"OSC title, the printf of the brief", "\x1b]0;pwned\x07\x1b[2Jgotcha", "gotcha"},
		{"CSI clear screen", "a\x1b[2Jb", "ab"},
		{"CSI clear screen and home", "\x1b[H\x1b[2J\x1b[3Jclean", "clean"},
		{"cursor moves", "x\x1b[10;20Hy\x1b[5Az\x1b[?25l", "xyz"},
		{"colours", "\x1b[31;1mred\x1b[0m", "red"},
		{"bell", "ding\a dong\x07", "ding dong"},
		{"C1 CSI", "a\u009b2Jb", "ab"},
		{"C1 OSC to C1 ST", "a\u009d0;title\u009cb", "ab"},
		{"DCS", "a\x1bPq#0;2;0;0;0#0~~\x1b\\b", "ab"},
		{"APC and PM", "a\x1b_Gf=100;AAAA\x1b\\b\x1b^private\x1b\\c", "abc"},
		{"two-character escapes", "a\x1bcb\x1b7c\x1b(0d", "abcd"},
		{"unterminated OSC swallows the rest", "ok\x1b]8;;http://evil/\x07link", "oklink"},
		{"OSC cut by another escape", "ok\x1b]0;x\x1b[2Jyes", "okyes"},
		{"lone ESC at the end", "bye\x1b", "bye"},
		{"C0 and DEL", "a\x00b\x01c\x7fd\x08e", "abcde"},
		{"line breaks and tabs become one space", "one\r\ntwo\tthree\n\n\nfour", "one two three four"},
		{"carriage return overwrite", "safe\rEVIL", "safe EVIL"},
		{"leading and trailing space", "  \t hello \n", "hello"},
		{"bidi override", "invoice\u202Egpj.exe", "invoicegpj.exe"},
		{"bidi embeddings and pop", "\u202Aa\u202Bb\u202Cc\u202Dd", "abcd"},
		{"bidi isolates", "\u2066x\u2067y\u2068z\u2069", "xyz"},
		{"bidi marks", "a\u200Eb\u200Fc\u061Cd", "abcd"},
		{"zero-width space and word joiner", "ad\u200Bmin\u2060!\uFEFF", "admin!"},
		{"zero-width joiner inside an ASCII word", "ad\u200Dmin", "admin"},
		{"zero-width joiner in an emoji family", "👨\u200D👩\u200D👧", "👨\u200D👩\u200D👧"},
		{"zero-width non-joiner in Persian", "می\u200Cخواهم", "می\u200Cخواهم"},
		{"soft hyphen and Hangul filler", "pay\u00ADpal \u3164", "paypal"},
		{"tags", "flag\U000E0067\U000E0062", "flag"},
		{"combining marks pile", "Z" + strings.Repeat("\u0336", 40) + "!", "Z" + strings.Repeat("\u0336", maxMarks) + "!"},
		{"Vietnamese keeps its marks", "Tiếng Việt", "Tiếng Việt"},
		{"mixed valid text", "Ça va? 日本語 🎲 — 3×4 ≥ 11", "Ça va? 日本語 🎲 — 3×4 ≥ 11"},
		{"invalid UTF-8 replaced", "ok\xff\xfe go\xc3", "ok\uFFFD go\uFFFD"},
		{"raw C1 byte is invalid UTF-8", "a\x9b2Jb", "a\uFFFD2Jb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CleanText(tt.in); got != tt.want {
				t.Errorf("CleanText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// Ten kilobytes of hostile input come out clean, in one line, quickly.
func TestCleanTextLargeInput(t *testing.T) {
	var in strings.Builder
	for in.Len() < 10<<10 {
		in.WriteString("gg \x1b]52;c;Zm9v\x07\x1b[2J\u202E\xff\u200B\r\n")
	}
	start := time.Now()
	out := CleanText(in.String())
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("cleaning 10 KB took %v", d)
	}
	if !utf8.ValidString(out) {
		t.Fatal("output is not UTF-8")
	}
	for _, r := range out {
		if unicode.IsControl(r) || invisible(r) {
			t.Fatalf("output keeps %U", r)
		}
	}
	if want := strings.TrimSpace(strings.Repeat("gg \uFFFD ", strings.Count(in.String(), "gg"))); out != want {
		t.Errorf("10 KB cleaned to %d bytes %.80q…, want %d bytes", len(out), out, len(want))
	}
}
