package kit

import (
	"slices"

	"github.com/smokestack/smokestack/internal/lang"
)

// Part remembers the last drawing of one part of a board: a Board is one
// decoded view, drawn again for every key its player presses (the menu
// moving, the key help opening and closing) while the view stays the
// same, and a part that depends only on the view, the theme, the seats
// and its size need not be drawn again for those. The zero Part has
// nothing drawn. A Board is drawn by one screen's event loop, so a Part
// needs no lock.
type Part = PartOf[string]

// PartOf is Part for a drawing that is more than one string: lines, or
// blocks with what a layout learnt of their size. A drawing it returns
// is returned again: treat it as read-only.
type PartOf[V any] struct {
	styles *Styles
	l      *lang.Printer
	seats  Seats
	w, h   int
	drawn  V
	ok     bool
}

// Draw returns what draw returned the last time for the same theme,
// language, seats and size, or draws it now.
func (p *PartOf[V]) Draw(t Theme, s Seats, w, h int, draw func() V) V {
	if p.ok && p.styles == t.Styles && p.l == t.L && p.w == w && p.h == h && p.seats.Equal(s) {
		return p.drawn
	}
	p.styles, p.l, p.seats, p.w, p.h, p.drawn, p.ok = t.Styles, t.L, s, w, h, draw(), true
	return p.drawn
}

// Kept is the last drawing of something a screen draws at every frame,
// and the key it was drawn under: a key press changes few of a frame's
// pieces. The zero Kept has nothing kept. A screen draws from its one
// event loop, so a Kept needs no lock.
type Kept[K comparable] struct {
	key   K
	drawn string
	ok    bool
}

// Get returns what draw returned the last time for key, or draws it now.
func (k *Kept[K]) Get(key K, draw func() string) string {
	if !k.ok || k.key != key {
		k.key, k.drawn, k.ok = key, draw(), true
	}
	return k.drawn
}

// Equal reports whether s and o name the same people, bots and viewer.
func (s Seats) Equal(o Seats) bool {
	return s.Viewer == o.Viewer && slices.Equal(s.Names, o.Names) && slices.Equal(s.Bots, o.Bots)
}

// Carrier is a Board that can take over the parts the board it replaces
// had drawn: each room update decodes a new board, though a move mostly
// changes one seat's area, and a part whose sub-view is unchanged draws
// the same. It must carry only parts whose every input it has compared.
type Carrier interface {
	Carry(old Board)
}

// Carry lets b take over old's drawings where b can; old is the board
// the same screen showed before, for the same viewer.
func Carry(old, b Board) {
	if c, ok := b.(Carrier); ok && old != nil {
		c.Carry(old)
	}
}
