package factories

import (
	"strconv"
	"strings"
	"sync"

	"github.com/smokestack/smokestack/engine"
	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// describe words a move for the menu in the theme's language: the
// engine's Words of it, part after part, with a seat named as the table
// knows it. In English it reads as the engine's DescribeFor.
func describe(t kit.Theme, v *factories.View, s kit.Seats, mv factories.Move) string {
	if t.L.Tag() == lang.English {
		// The same words, as the tests hold them; a menu words every legal
		// move of every update, so English takes the engine's own path.
		return mv.DescribeFor(*v, s.Name)
	}
	var b strings.Builder
	for _, w := range mv.Words(*v) {
		for i, a := range w.Args {
			if a.Name == "Seat" {
				seat, _ := strconv.Atoi(a.Value)
				w.Args = append([]engine.Arg(nil), w.Args...)
				w.Args[i] = engine.Str("Seat", s.Name(seat))
			}
		}
		b.WriteString(say(t, w))
	}
	return b.String()
}

// say is kit.Say for the menu's parts, remembered by language, message
// and arguments: the same parts come back at every update ("Build
// Foundry", ", paying 2 energy"), and a template costs far more than a
// lookup. A part with more than three arguments is worded afresh.
func say(t kit.Theme, w engine.Words) string {
	if len(w.Args) > 3 {
		return kit.Say(t, "factories", w)
	}
	k := partKey{tag: t.L.Tag(), id: w.ID}
	for i, a := range w.Args {
		if a.List != nil {
			return kit.Say(t, "factories", w)
		}
		k.args[i] = argKey{a.Name, a.Value, a.Kind}
	}
	partsMu.RLock()
	s, ok := parts[k]
	partsMu.RUnlock()
	if ok {
		return s
	}
	s = kit.Say(t, "factories", w)
	partsMu.Lock()
	if len(parts) >= maxParts {
		// Names and values are bounded, a seat's name is not: start over
		// rather than grow.
		clear(parts)
	}
	parts[k] = s
	partsMu.Unlock()
	return s
}

type partKey struct {
	tag  lang.Tag
	id   string
	args [3]argKey
}

// argKey is an engine.Arg without its list, which no menu part has.
type argKey struct {
	name, value string
	kind        engine.ArgKind
}

// parts holds the worded parts, at most maxParts.
var (
	partsMu sync.RWMutex
	parts   = map[partKey]string{}
)

const maxParts = 1 << 14
