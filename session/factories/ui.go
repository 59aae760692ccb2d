// Package factories draws Fantastic Factories for the generic game and
// replay screens of package session: the marketplace, every seat's
// compound, the move menu's groups and the card reference, all from a
// seat's view alone.
package factories

import (
	"fmt"
	"math"
	"strings"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// UI is Fantastic Factories' screens, registered for rooms whose game is
// "factories".
var UI kit.Game = kit.Screens[factories.View]{
	Board: func(v *factories.View) kit.Board { return &board{v: v} },
	Pages: rules,
}

// board is one seat's (or a spectator's) view, drawn. Each room update
// decodes a new one, so it is small: what it draws and keeps is in
// drawings, which a board takes over from the one it replaces (Carry).
type board struct {
	v *factories.View
	*drawings
}

// drawings is what a board keeps from frame to frame.
type drawings struct {
	// The parts of the seated board that the menu's moving leaves as
	// they were: the marketplace, the seat's own area and the others.
	market, you kit.Part
	hand        handKept // the hand's lines in the seat's own area
	others      kit.PartOf[othersDrawn]
	// seats are the others' blocks, one a seat, which a board carries
	// over one by one where the others' part as a whole changed.
	seats  []seatPart
	made   madeMenu   // the menu, made once and carried over
	header headerKept // the header, kept by all it reads
	laid   laid       // the seated board's Grid's slices
}

// kept is b's drawings, made on first use.
func (b *board) kept() *drawings {
	if b.drawings == nil {
		b.drawings = new(drawings)
	}
	return b.drawings
}

// seatsKept is the board's seats' blocks, made for its view's seats.
func (b *board) seatsKept() []seatPart {
	d := b.kept()
	if len(d.seats) != len(b.v.Players) {
		d.seats = make([]seatPart, len(b.v.Players))
	}
	return d.seats
}

// Over implements kit.Board.
func (b *board) Over() bool { return b.v.Phase == factories.GameOver }

// Stage implements kit.Staged: the phase, each a turn.
func (b *board) Stage() string { return string(b.v.Phase) }

// Header implements kit.Board: the round, the phase and who acts.
func (b *board) Header(t kit.Theme, s kit.Seats) string { return b.HeaderIn(t, s, math.MaxInt) }

// HeaderIn implements kit.Fitted: Header in w columns, the seats still
// working shortened, then counted, where their names do not fit.
func (b *board) HeaderIn(t kit.Theme, s kit.Seats, w int) string {
	k, ok := headerKeyOf(t, b.v, w)
	if !ok {
		return b.header(t, s, w)
	}
	h := &b.kept().header
	if !h.ok || h.key != k || !sameSeats(h.seats, s) {
		*h = headerKept{key: k, seats: s, text: b.header(t, s, w), ok: true}
	}
	return h.text
}

// headerKept is the header as HeaderIn last drew it, for what it drew it
// for: an update mostly leaves the round, the phase and who acts as they
// were, though a new board is decoded for it.
type headerKept struct {
	key   headerKey
	seats kit.Seats
	text  string
	ok    bool
}

// headerKey is all the header reads but the seats: the theme, the width
// and the view's round, phase, turn, seat and who is done.
type headerKey struct {
	styles                         *kit.Styles
	l                              *lang.Printer
	w                              int
	phase                          factories.Phase
	round, final, turn, seat, many int
	working                        uint64 // bit i: seat i is still working
}

// headerKeyOf is the header's key, and false for a view whose players
// the key cannot hold: more than 64, or not in their seats' order.
func headerKeyOf(t kit.Theme, v *factories.View, w int) (headerKey, bool) {
	k := headerKey{styles: t.Styles, l: t.L, w: w, phase: v.Phase, round: v.Round, final: v.FinalRound,
		turn: v.Turn, seat: v.Seat, many: len(v.Players)}
	if len(v.Players) > 64 {
		return k, false
	}
	for i := range v.Players {
		if v.Players[i].Seat != i {
			return k, false
		}
		if !v.Players[i].Done {
			k.working |= 1 << i
		}
	}
	return k, true
}

// sameSeats reports whether a and b name the seats alike in the same
// language and way.
func sameSeats(a, b kit.Seats) bool { return a.Equal(b) && a.L == b.L && a.Plain == b.Plain }

// header is HeaderIn drawn.
func (b *board) header(t kit.Theme, s kit.Seats, w int) string {
	v := b.v
	if v.Phase == factories.GameOver {
		return tf(t, "factories.header.over", "Round", v.Round)
	}
	round := tf(t, "factories.header.round", "Round", v.Round)
	if v.FinalRound > 0 {
		round = tf(t, "factories.header.round_of", "Round", v.Round, "Final", v.FinalRound)
	}
	parts := []string{round}
	switch v.Phase {
	case factories.MarketPhase:
		turn := tf(t, "factories.header.turn_of", "Name", s.Name(v.Turn))
		if s.Me(v.Turn) {
			turn = t.Accent.Render(t.L.T("factories.header.your_turn"))
		}
		parts = append(parts, t.L.T("factories.header.market"), turn)
	case factories.WorkPhase:
		// Who is still working, you first.
		var you []string
		if v.Seat >= 0 && !v.You().Done {
			you = append(you, t.Accent.Render(t.L.T("factories.header.you")))
		}
		var working []int
		for _, p := range v.Players {
			if !p.Done && !s.Me(p.Seat) {
				working = append(working, p.Seat)
			}
		}
		return kit.NameList(s, you, working, w, func(list string) string {
			return strings.Join(append(parts, tf(t, "factories.header.work", "Names", list)), " · ")
		})
	}
	return strings.Join(parts, " · ")
}

// Banner implements kit.Board: the end of the game coming.
func (b *board) Banner(t kit.Theme, s kit.Seats) string {
	if b.v.EndCause != "" && b.v.Phase != factories.GameOver {
		return t.Accent.Render(tf(t, "factories.banner.end", "Cause", endCause(t, b.v, s, false), "Round", b.v.FinalRound))
	}
	return ""
}

// endCause words what triggered the end, naming who: "bob has 12
// goods". past words it as it was then, for the final scores, whose own
// numbers may be higher: "bob had 12 goods". The engine's cause reads
// "has 12 goods" or "has 10 buildings".
func endCause(t kit.Theme, v *factories.View, s kit.Seats, past bool) string {
	var n int
	var what string
	if _, err := fmt.Sscanf(v.EndCause, "has %d %s", &n, &what); err != nil {
		return v.EndCause // not a cause this screen knows: as the engine words it
	}
	who := s.Name(v.EndSeat)
	if v.EndSeat < 0 {
		who = t.L.T("factories.machine.name")
	}
	buildings := what == "buildings"
	switch {
	case s.Me(v.EndSeat) && past && buildings:
		return t.L.N("factories.end.you_had_buildings", n)
	case s.Me(v.EndSeat) && past:
		return t.L.N("factories.end.you_had_goods", n)
	case s.Me(v.EndSeat) && buildings:
		return t.L.N("factories.end.you_have_buildings", n)
	case s.Me(v.EndSeat):
		return t.L.N("factories.end.you_have_goods", n)
	case past && buildings:
		return t.L.N("factories.end.had_buildings", n, "Who", who)
	case past:
		return t.L.N("factories.end.had_goods", n, "Who", who)
	case buildings:
		return t.L.N("factories.end.has_buildings", n, "Who", who)
	}
	return t.L.N("factories.end.has_goods", n, "Who", who)
}

// Idle implements kit.Board, in the viewer's language (s.L).
func (b *board) Idle(s kit.Seats) string {
	t := kit.Theme{L: s.L}
	switch {
	case b.v.Phase == factories.MarketPhase && !s.Me(b.v.Turn):
		return tf(t, "factories.idle.waiting_for", "Name", s.Name(b.v.Turn))
	case b.v.Phase == factories.WorkPhase && b.v.You().Done:
		return t.L.T("factories.idle.done")
	}
	return t.L.T("factories.idle.nothing")
}
