package kit

import "slices"

// Part remembers the last drawing of one part of a board: a Board is one
// decoded view, drawn again for every key its player presses (the menu
// moving, the key help opening and closing) while the view stays the
// same, and a part that depends only on the view, the theme, the seats
// and its size need not be drawn again for those. The zero Part has
// nothing drawn. A Board is drawn by one screen's event loop, so a Part
// needs no lock.
type Part struct {
	styles *Styles
	seats  Seats
	w, h   int
	drawn  string
	ok     bool
}

// Draw returns what draw returned the last time for the same theme,
// seats and size, or draws it now.
func (p *Part) Draw(t Theme, s Seats, w, h int, draw func() string) string {
	if p.ok && p.styles == t.Styles && p.w == w && p.h == h && p.seats.Equal(s) {
		return p.drawn
	}
	p.styles, p.seats, p.w, p.h, p.drawn, p.ok = t.Styles, s, w, h, draw(), true
	return p.drawn
}

// Equal reports whether s and o name the same people, bots and viewer.
func (s Seats) Equal(o Seats) bool {
	return s.Viewer == o.Viewer && slices.Equal(s.Names, o.Names) && slices.Equal(s.Bots, o.Bots)
}
