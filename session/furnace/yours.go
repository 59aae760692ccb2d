package furnace

import (
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
	title := t.Title.Render(p.T("furnace.yours.title")) + "  " + goodsLine(p, me.Goods)
	if len(me.Cards)+len(me.New) == 0 {
		return title + "\n\n" + p.T("furnace.yours.none")
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
		lines = append([]string{title, t.Dim.Render(strings.Join(wrap(hint, w), "\n"))}, lines...)
		if widest(lines) <= w && len(lines) <= h-1 {
			break
		}
	}
	for _, c := range me.New {
		lines = append(lines, t.Accent.Render(p.T("furnace.yours.wonToPlace", "Card", c.ID())))
	}
	return strings.Join(append(lines, "", t.Dim.Render(p.T("furnace.yours.back"))), "\n")
}
