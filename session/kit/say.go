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
			v = t.L.Or(game+"."+string(a.Kind)+"."+v, v)
		case engine.List, engine.Items, engine.Steps:
			v = sayList(t, game, a, you(w))
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

// sayList words a List, Items or Steps argument's items and joins them:
// steps with semicolons, items with commas, a list with commas and the
// language's "and" before its last item.
func sayList(t Theme, game string, a engine.Arg, you *engine.Arg) string {
	items := make([]string, len(a.List))
	for i, w := range a.List {
		if you != nil {
			w.Args = append(w.Args[:len(w.Args):len(w.Args)], *you)
		}
		items[i] = Say(t, game, w)
	}
	switch {
	case a.Kind == engine.Steps:
		return strings.Join(items, "; ")
	case a.Kind == engine.Items || len(items) < 2:
		return strings.Join(items, ", ")
	}
	return And(t.L, items)
}

// you is w's argument named You, which a log line sets when its reader
// did what it says (so Polish and Russian word the verb in the second
// person): the texts w nests say what the same person did, and take it
// too. nil when w has none.
func you(w engine.Words) *engine.Arg {
	for i := range w.Args {
		if w.Args[i].Name == "You" {
			return &w.Args[i]
		}
	}
	return nil
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
