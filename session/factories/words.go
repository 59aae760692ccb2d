package factories

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// Cards and game terms are worded by their English keys, as each
// language's edition prints them (factories.card.KEY, factories.term.KEY
// in the catalogue); a name the catalogue lacks shows as it is.

// cardName is a card's printed name in the theme's language.
func cardName(t kit.Theme, name string) string { return word(t, "factories.card.", name) }

// term is a game term ("metal", "gear", "production") in the theme's
// language.
func term(t kit.Theme, key string) string { return word(t, "factories.term.", key) }

// word is a card's or term's name, from a table per language and kind
// built on first use: boards name every card of every frame, and a
// lookup costs no allocation.
func word(t kit.Theme, prefix, key string) string {
	k := wordsKey{t.L.Tag(), prefix}
	m, ok := wordTables.Load(k)
	if !ok {
		m, _ = wordTables.LoadOrStore(k, &sync.Map{})
	}
	table := m.(*sync.Map)
	if s, ok := table.Load(key); ok {
		return s.(string)
	}
	s := t.L.Or(prefix+key, key)
	table.Store(key, s)
	return s
}

// wordTables are the names by language and kind (wordsKey), each a
// sync.Map from English key to name: a few hundred strings in all, as
// only the game's cards and terms are looked up.
var wordTables sync.Map

type wordsKey struct {
	tag  lang.Tag
	name string
}

// costText words a build cost: "2 metal 1 energy", "free", each amount
// in its plural form (Russian: 1 металл, 2 металла). Boards word costs on
// every frame: each is worded once per language.
func costText(t kit.Theme, metal, energy int) string {
	k := costKey{t.L.Tag(), metal, energy}
	if s, ok := costTexts.Load(k); ok {
		return s.(string)
	}
	var s string
	switch {
	case metal > 0 && energy > 0:
		s = t.L.T("factories.cost.both", "Metal", t.L.N("factories.cost.metal", metal), "Energy", t.L.N("factories.cost.energy", energy))
	case metal > 0:
		s = t.L.N("factories.cost.metal", metal)
	case energy > 0:
		s = t.L.N("factories.cost.energy", energy)
	default:
		s = t.L.T("factories.cost.free")
	}
	costTexts.Store(k, s)
	return s
}

// costTexts are costText's by language and amounts (costKey).
var costTexts sync.Map

// cardNames names cards in the theme's language.
func cardNames(t kit.Theme, cards []factories.Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = cardName(t, c.Name())
	}
	return out
}

// tf is t.L.T for the board's hot messages, which take only plain
// {{.Name}} arguments: a message's text is worded once per language with
// markers for its arguments, and each frame fills them in, without a
// template or a map. Arguments come as name, value pairs; a value is a
// string or an int.
func tf(t kit.Theme, id string, args ...any) string {
	k := wordsKey{t.L.Tag(), id}
	formsMu.RLock()
	pieces, ok := forms[k]
	formsMu.RUnlock()
	if !ok {
		pieces = formOf(t, id, args)
		formsMu.Lock()
		forms[k] = pieces
		formsMu.Unlock()
	}
	// Sized once, from the text and the arguments as they come: a
	// builder grown by doubling was most of a label's garbage.
	n := 0
	for i := 0; i < len(pieces); i += 2 {
		n += len(pieces[i])
	}
	for j := 1; j < len(args); j += 2 {
		if v, ok := args[j].(string); ok {
			n += len(v)
		} else {
			n += 4 // a count
		}
	}
	var b strings.Builder
	b.Grow(n)
	var digits [20]byte
	for i, p := range pieces {
		if i%2 == 0 {
			b.WriteString(p)
			continue
		}
		for j := 0; j+1 < len(args); j += 2 {
			if args[j] == p {
				switch v := args[j+1].(type) {
				case string:
					b.WriteString(v)
				case int:
					b.Write(strconv.AppendInt(digits[:0], int64(v), 10))
				}
			}
		}
	}
	return b.String()
}

// formOf words message id with a marker for each argument and splits it
// into its text and the arguments' names, alternately: "metal ", Metal,
// " · energy ", Energy, "".
func formOf(t kit.Theme, id string, args []any) []string {
	marked := make([]any, 0, len(args))
	for j := 0; j+1 < len(args); j += 2 {
		marked = append(marked, args[j], mark+fmt.Sprint(args[j])+mark)
	}
	return strings.Split(t.L.T(id, marked...), mark)
}

// mark brackets an argument's name in a message worded by formOf: a
// control character no catalogue holds.
const mark = "\x1f"

var (
	formsMu sync.RWMutex
	forms   = map[wordsKey][]string{}
)
