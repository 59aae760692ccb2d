package players

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/lobby/store"
)

// A name in one alphabet can still pass for a name in another: Cyrillic
// "асе" for Latin "ace". CheckName refuses a name that mixes them; a
// name wholly in one is refused when it reads as a name a profile holds
// in another (lookalikes). The table is of the letters that look alike
// in either case, since names are compared without it (Cyrillic "в" is
// "В", a Latin "B"): a small part of Unicode's confusables (TR39).

// toLatin maps the Cyrillic and Greek letters that look like a Latin one
// to it.
var toLatin = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'і': 'i', 'ј': 'j', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'п': 'n', 'р': 'p',
	'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l',
	'α': 'a', 'β': 'b', 'ε': 'e', 'ζ': 'z', 'η': 'h', 'ι': 'i', 'κ': 'k', 'μ': 'm', 'ν': 'v', 'ο': 'o',
	'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
}

// fromLatin maps Latin letters to their Cyrillic and Greek look-alikes.
var fromLatin = map[string]map[rune]rune{"Cyrillic": {}, "Greek": {}}

func init() {
	for r, l := range toLatin {
		script := "Cyrillic"
		if r >= 'α' && r <= 'ω' {
			script = "Greek"
		}
		if _, ok := fromLatin[script][l]; !ok || r == 'н' { // н, not һ, for h
			fromLatin[script][l] = r
		}
	}
}

// lookalikes are the names name passes for in the other alphabets: each
// of its letters swapped for its look-alike, when every one has one.
func lookalikes(name string) []string {
	key := store.NameKey(name)
	var out []string
	if l, ok := swap(key, toLatin); ok && l != key {
		out = append(out, l)
	}
	for _, script := range []string{"Cyrillic", "Greek"} {
		if l, ok := swap(key, fromLatin[script]); ok && l != key {
			out = append(out, l)
		}
	}
	return out
}

// swap maps the letters of s by m, or reports false if a letter has no
// mapping; the rest (digits, a space, - _ . ') stay.
func swap(s string, m map[rune]rune) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		if to, ok := m[r]; ok {
			b.WriteRune(to)
			continue
		}
		if unicode.IsLetter(r) {
			return "", false
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// isReserved reports whether the name key k is kept from every player.
func isReserved(k string) bool {
	return slices.Contains(genericNames, k) || strings.HasPrefix(k, guestPrefix)
}

// checkLookalikes refuses name when it passes for a name another profile
// than id holds, or a reserved one.
func (ps *Players) checkLookalikes(ctx context.Context, id, name string) error {
	for _, l := range lookalikes(name) {
		taken := isReserved(l)
		if !taken {
			prof, err := ps.cfg.Store.NamedProfile(ctx, l)
			switch {
			case err == nil:
				taken = prof.ID != id
			case !errors.Is(err, store.ErrNoProfile):
				return ps.cfg.Unavailable("names like "+name, err)
			}
		}
		if taken {
			return engine.Refuse(fmt.Sprintf("%q passes for %q, a name taken: choose another name", name, l),
				engine.Say("lobby.nameLookalike", engine.Str("Name", fmt.Sprintf("%q", name)), engine.Str("Other", fmt.Sprintf("%q", l))))
		}
	}
	return nil
}
