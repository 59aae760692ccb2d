package lang

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// TestPlainIsTemplate holds T's way for plain messages (plainT) to the
// template's, for every plain message of every catalogue, in every
// language and the pseudo-locale, with strings and ints that a shortcut
// could get wrong, and an argument the message does not name.
func TestPlainIsTemplate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	values := []any{"", "bob", "♥ bob", "{{.Name}}", "<no value>", marker, "a\nb", "\x1b[1mx\x1b[0m", 0, 7, -3, 1234567}
	for _, tag := range append(slices.Clone(Tags), Pseudo) {
		p := For(tag)
		plain := 0
		for id, names := range p.plainIDs {
			if names == nil {
				continue
			}
			plain++
			for range 4 {
				var args []any
				for _, n := range names {
					args = append(args, n, values[rnd.IntN(len(values))])
				}
				args = append(args, "Unused", "x")
				d := data(args)
				want := p.word(id, nil, d)
				release(d)
				got, ok := p.plainT(id, args)
				if !ok {
					t.Fatalf("%s: %s with %v went to the template", tag, id, args)
				}
				if got != want {
					t.Fatalf("%s: %s with %v = %q; the template gives %q", tag, id, args, got, want)
				}
				if got := p.T(id, args...); got != want {
					t.Fatalf("%s: T(%s, %v) = %q; the template gives %q", tag, id, args, got, want)
				}
			}
		}
		if plain < 100 {
			t.Fatalf("%s: %d plain messages: the test checks too few", tag, plain)
		}
	}
}

// TestPlainNames: a message is plain only when every form of it, in
// every catalogue, puts its arguments in place and does nothing else;
// T gives the rest, and a plain message whose argument is missing or
// neither a string nor an int, to the template.
func TestPlainNames(t *testing.T) {
	got := map[string][]string{}
	plainNames(got, []*i18n.Message{
		{ID: "a", Other: "{{.Who}} took {{ .What }}"},
		{ID: "b", Other: "{{if .You}}you{{else}}they{{end}}"},
		{ID: "c", One: "{{.N}} card", Other: "{{.N}} cards of {{.Who}}"},
		{ID: "d", Other: "no arguments"},
		{ID: "e", Other: "{{.X}}"},
	})
	plainNames(got, []*i18n.Message{{ID: "e", Other: "{{.X | printf \"%q\"}}"}, {ID: "a", Other: "{{.What}}: {{.Who}}"}})
	want := map[string][]string{"a": {"Who", "What"}, "b": nil, "c": {"N", "Who"}, "d": {}, "e": nil}
	for id, names := range want {
		if g, ok := got[id]; !ok || (g == nil) != (names == nil) || !slices.Equal(g, names) {
			t.Errorf("%s: plainNames gives %q; want %q", id, g, names)
		}
	}
	p := For(English)
	if names := p.plainIDs["lang.duration.join"]; len(names) != 2 {
		t.Fatalf("lang.duration.join names %q: not the plain message this test needs", names)
	}
	if _, ok := p.plainT("lang.duration.join", []any{"A", "1h"}); ok {
		t.Error("a plain message with an argument missing went the plain way")
	}
	if _, ok := p.plainT("lang.duration.join", []any{"A", 1.5, "B", "x"}); ok {
		t.Error("a float argument went the plain way")
	}
}
