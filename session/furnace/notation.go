package furnace

import (
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
)

// notation words goods and card lines for the board: in full ("1 coal +
// 1 iron → 4 money ×3") where there is room, or short ("1c+1i→$4 ×3")
// where there is not. The short form is always explained by legend, which
// the board shows whenever it uses it.
type notation struct{ short bool }

var (
	long  = notation{}
	short = notation{short: true}
)

// legend explains the short notation.
const legend = "c coal · i iron · o oil · t upgrade token · $ money"

// goods words an amount: "2c+1i" or "2 coal + 1 iron"; "nothing" when
// there is none.
func (n notation) goods(g furnace.Goods) string {
	var parts []string
	add := func(k int, letter, word string) {
		switch {
		case k == 0:
		case n.short && letter == "$":
			parts = append(parts, fmt.Sprintf("$%d", k))
		case n.short:
			parts = append(parts, fmt.Sprintf("%d%s", k, letter))
		default:
			parts = append(parts, fmt.Sprintf("%d %s", k, word))
		}
	}
	add(g.Coal, "c", "coal")
	add(g.Iron, "i", "iron")
	add(g.Oil, "o", "oil")
	tokens := "upgrade tokens"
	if g.Tokens == 1 {
		tokens = "upgrade token"
	}
	add(g.Tokens, "t", tokens)
	add(g.Money, "$", "money")
	if len(parts) == 0 {
		return "nothing"
	}
	if n.short {
		return strings.Join(parts, "+")
	}
	return strings.Join(parts, " + ")
}

// line words one printed line: an extraction "+2c", a processing
// "2c→1o ×2" (up to twice), a compensation "2c→1o" (the disc is the
// multiplier), or the start cards' upgrade line.
func (n notation) line(l furnace.Line) string {
	arrow := " → "
	if n.short {
		arrow = "→"
	}
	switch {
	case l.Upgrade:
		if n.short {
			return "upgrade (1c+1t each)"
		}
		return "upgrade companies (1 coal + 1 upgrade token each)"
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
