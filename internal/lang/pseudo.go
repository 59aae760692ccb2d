package lang

import (
	"strings"
	"unicode"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// Pseudo is a language for tests, no player's: English with every
// message wrapped in ⟦ ⟧ and its letters accented ("⟦Ŵîñš⟧"), as
// Android's en-XA and Windows' qps-ploc are. A screen drawn in it shows
// every word the catalogues did not word as plain ASCII letters
// (Unlocalized finds them), whatever the code that built it. Parse never
// returns it and Tags does not list it; its plural rules are English's.
const Pseudo Tag = "en-XA"

// accents maps each ASCII letter to an accented one that a terminal
// draws one cell wide.
var accents = func() map[rune]rune {
	lower := []rune("åƀçđéƒĝĥîĵķľɱñöþǫŕšţûṽŵẋýž")
	upper := []rune("ÅƁÇĐÉƑĜĤÎĴĶĽṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
	m := make(map[rune]rune, 52)
	for i := range 26 {
		m[rune('a'+i)], m[rune('A'+i)] = lower[i], upper[i]
	}
	return m
}()

// Accent is s with its ASCII letters accented as Pseudo words them: a
// test that waits for an English text waits for Accent(text) in Pseudo.
func Accent(s string) string {
	return strings.Map(func(r rune) rune {
		if a, ok := accents[r]; ok {
			return a
		}
		return r
	}, s)
}

// pseudo words an English message's text in Pseudo: its text accented
// and the whole wrapped, its template actions ({{.Name}}, {{if .You}})
// kept as they are.
func pseudo(s string) string {
	var b strings.Builder
	b.WriteString("⟦")
	for s != "" {
		open := strings.Index(s, "{{")
		if open < 0 {
			b.WriteString(Accent(s))
			break
		}
		end := strings.Index(s[open:], "}}")
		if end < 0 {
			b.WriteString(Accent(s))
			break
		}
		end += open + 2
		b.WriteString(Accent(s[:open]))
		b.WriteString(s[open:end])
		s = s[end:]
	}
	b.WriteString("⟧")
	return b.String()
}

// pseudoMessages are English's messages worded in Pseudo.
func pseudoMessages(en []*i18n.Message) []*i18n.Message {
	out := make([]*i18n.Message, len(en))
	for i, m := range en {
		c := *m
		for _, form := range []*string{&c.Zero, &c.One, &c.Two, &c.Few, &c.Many, &c.Other} {
			if *form != "" {
				*form = pseudo(*form)
			}
		}
		out[i] = &c
	}
	return out
}

// Unlocalized lists the words of ASCII letters in text drawn in Pseudo,
// in order: words no catalogue worded, since every catalogue letter is
// accented, or the names, codes, card ids and commands a player types,
// which the caller knows and allows. A word runs over ASCII letters,
// digits and the - _ . within it ("mine-08", "games.example.org"), and
// has a letter.
func Unlocalized(text string) []string {
	var words []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !asciiWord(r) }) {
		w = strings.Trim(w, "-_.")
		if strings.IndexFunc(w, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) >= 0 {
			words = append(words, w)
		}
	}
	return words
}

func asciiWord(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.", r))
}
