package kit

import (
	"errors"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine"
)

// Say words w in the theme's language for a game's screens: a card or
// term argument by its name in the catalogue (GAME.card.KEY,
// GAME.term.KEY, its English key when the catalogue has none), a list's
// items each in turn, and an argument named N as the count that picks a
// plural form.
func Say(t Theme, game string, w engine.Words) string {
	args := make([]any, 0, 2*len(w.Args))
	n, plural := 0, false
	for _, a := range w.Args {
		v := a.Value
		switch a.Kind {
		case engine.Card, engine.Term:
			if id := game + "." + string(a.Kind) + "." + v; t.L.Has(id) {
				v = t.L.T(id)
			}
		case engine.List, engine.Steps:
			v = sayList(t, game, a)
		}
		if a.Name == "N" {
			if i, err := strconv.Atoi(a.Value); err == nil {
				n, plural = i, true
				continue
			}
		}
		args = append(args, a.Name, v)
	}
	if plural {
		return t.L.N(w.ID, n, args...)
	}
	return t.L.T(w.ID, args...)
}

// sayList words a List or Steps argument's items and joins them: steps
// with semicolons, a list with commas and the language's "and" before its
// last item.
func sayList(t Theme, game string, a engine.Arg) string {
	items := make([]string, len(a.List))
	for i, w := range a.List {
		items[i] = Say(t, game, w)
	}
	if a.Kind == engine.Steps || len(items) < 2 {
		return strings.Join(items, "; ")
	}
	last := len(items) - 1
	return t.L.T("log.and", "Rest", strings.Join(items[:last], ", "), "Last", items[last])
}

// Refusal words err for the player in the theme's language when it is
// (or wraps) an engine.Refusal, and as its English text otherwise.
func Refusal(t Theme, game string, err error) string {
	var r *engine.Refusal
	if errors.As(err, &r) && r.ID != "" {
		return Say(t, game, r.Words)
	}
	return err.Error()
}
