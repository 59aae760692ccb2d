package kit

import (
	"errors"
	"strconv"

	"github.com/smokestack/smokestack/engine"
)

// Say words w in the theme's language for a game's screens: a card or
// term argument by its name in the catalogue (GAME.card.KEY,
// GAME.term.KEY, its English key when the catalogue has none), and an
// argument named N as the count that picks a plural form.
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

// Refusal words err for the player in the theme's language when it is
// (or wraps) an engine.Refusal, and as its English text otherwise.
func Refusal(t Theme, game string, err error) string {
	var r *engine.Refusal
	if errors.As(err, &r) && r.ID != "" {
		return Say(t, game, r.Words)
	}
	return err.Error()
}
