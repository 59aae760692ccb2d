package furnace

import (
	"fmt"
	"strings"
	"sync"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// notation words goods and card lines for the board, in the reader's
// language: in full ("1 coal + 1 iron → 4 money ×3") where there is room,
// or short ("1c+1i→$4 ×3") where there is not. The short form is always
// explained by the legend, which the board shows whenever it uses it.
type notation struct {
	short bool
	p     *lang.Printer // nil words English
}

var (
	long  = notation{}
	short = notation{short: true}
)

// in is n in p's language.
func (n notation) in(p *lang.Printer) notation {
	n.p = p
	return n
}

// legend explains the short notation.
func legend(p *lang.Printer) string { return p.T("furnace.legend") }

// goods words an amount: "2c+1i" or "2 coal + 1 iron"; "nothing" when
// there is none. Each good in full takes its language's plural form.
func (n notation) goods(g furnace.Goods) string {
	var parts []string
	add := func(k int, letter, word string) {
		switch {
		case k == 0:
		case n.short && letter == "$":
			parts = append(parts, fmt.Sprintf("$%d", k))
		case n.short:
			parts = append(parts, fmt.Sprintf("%d%s", k, n.p.T(letter)))
		default:
			parts = append(parts, counted(n.p, word, k))
		}
	}
	add(g.Coal, "furnace.short.coal", "furnace.goods.coal")
	add(g.Iron, "furnace.short.iron", "furnace.goods.iron")
	add(g.Oil, "furnace.short.oil", "furnace.goods.oil")
	add(g.Tokens, "furnace.short.tokens", "furnace.goods.tokens")
	add(g.Money, "$", "furnace.goods.money")
	if len(parts) == 0 {
		return n.p.T("furnace.goods.nothing")
	}
	if n.short {
		return strings.Join(parts, "+")
	}
	return strings.Join(parts, " + ")
}

// countKey is a good counted in a language.
type countKey struct {
	tag lang.Tag
	id  string
	n   int
}

// counts are the goods counted so far ("2 węgle"): a board words the
// same few amounts on every frame, and a plural message is a template
// run each time it is asked for.
var counts sync.Map // countKey -> string

// counted is p.N(id, n), remembered.
func counted(p *lang.Printer, id string, n int) string {
	k := countKey{p.Tag(), id, n}
	if s, ok := counts.Load(k); ok {
		return s.(string)
	}
	s := p.N(id, n)
	counts.Store(k, s)
	return s
}

// line words one printed line: an extraction "+2c", a processing
// "2c→1o ×2" (up to twice), a compensation "2c→1o" (the disc is the
// multiplier), or the start cards' upgrade line.
func (n notation) line(l furnace.Line) string {
	// A market's and a table's every card words its lines at every
	// frame: each is worded once for a language and notation.
	return lineWords.Get(lineKey{n, l}, func() string { return n.wordLine(l) })
}

// lineWords are the lines notation.line has worded.
var lineWords = kit.NewShared[lineKey, string](4096)

type lineKey struct {
	n notation
	l furnace.Line
}

// wordLine words line.
func (n notation) wordLine(l furnace.Line) string {
	arrow := " → "
	if n.short {
		arrow = "→"
	}
	switch {
	case l.Upgrade:
		if n.short {
			return n.p.T("furnace.line.upgradeShort", "Coal", n.p.T("furnace.short.coal"), "Token", n.p.T("furnace.short.tokens"))
		}
		return n.p.T("furnace.line.upgrade")
	case !l.Processing():
		return "+" + n.goods(l.Gain)
	case l.Times > 0:
		return fmt.Sprintf("%s%s%s ×%d", n.goods(l.Pay), arrow, n.goods(l.Gain), l.Times)
	}
	return n.goods(l.Pay) + arrow + n.goods(l.Gain)
}

// lines words a card side's lines in order, joined by sep.
func (n notation) lines(ls []furnace.Line, sep string) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = n.line(l)
	}
	return strings.Join(out, sep)
}
