package furnace

import (
	"slices"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/session/kit"
)

// Yours implements kit.Yours: the seat's own cards, a row each with what
// it produces (on its upgraded side once upgraded), in words where they
// fit and in the short notation where they do not. The 80-column auction
// has no room for them beside a 4-player market, and bidding is deciding
// what your row needs.
func (b *board) Yours(t kit.Theme, s kit.Seats, w, h int) string {
	v, p := b.v, t.L
	me := v.You()
	if me == nil {
		return ""
	}
	title := yoursTitle(t, me.Goods, w)
	if len(me.Cards)+len(me.New) == 0 {
		return strings.Join(title, "\n") + "\n\n" + p.T("furnace.yours.none")
	}
	var lines []string
	for _, n := range []notation{long.in(p), short.in(p)} {
		g := grid{sep: "; ", p: p}
		for j, o := range me.Cards {
			id := o.Card.ID()
			if o.Upgraded {
				id += "⇧"
			}
			var items []string
			for _, l := range o.Card.Lines(o.Upgraded) {
				items = append(items, n.line(l))
			}
			g.rows = append(g.rows, gridRow{cells: []string{strconv.Itoa(j + 1), id}, items: items})
		}
		lines = g.lines(w, 0)
		hint := p.T("furnace.yours.hint")
		if n.short {
			hint += " · " + legend(p)
		}
		head := slices.Clone(title)
		for _, l := range wrap(hint, w) {
			head = append(head, t.Dim.Render(l))
		}
		lines = append(head, lines...)
		if widest(lines) <= w && len(lines) <= h-1 {
			break
		}
	}
	for _, c := range me.New {
		for _, l := range wrap(p.T("furnace.yours.wonToPlace", "Card", c.ID()), w) {
			lines = append(lines, t.Accent.Render(l))
		}
	}
	return strings.Join(append(lines, "", t.Dim.Render(p.T("furnace.yours.back"))), "\n")
}
