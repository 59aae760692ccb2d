// Package furnace draws Furnace for the generic game and replay screens of
// package session: the market with the discs on it, every seat's companies
// and goods, the move menu's groups, the card reference and the rules, all
// from a seat's view alone.
package furnace

import (
	"math"
	"strconv"
	"strings"

	"github.com/smokestack/smokestack/engine/furnace"
	"github.com/smokestack/smokestack/session/kit"
)

// UI is Furnace's screens, registered for rooms whose game is "furnace".
var UI kit.Game = kit.Screens[furnace.View]{
	Board: func(v *furnace.View) kit.Board { return &board{v: v} },
	Pages: rules,
}

// board is one seat's (or a spectator's) view, drawn.
type board struct {
	v *furnace.View
	// narrow and wide are the seated board's parts that a key leaves
	// as they were (seatedNarrow, seatedWide).
	narrow kit.PartOf[narrowParts]
	wide   kit.PartOf[wideParts]
}

// Over implements kit.Board.
func (b *board) Over() bool { return b.v.Phase == furnace.GameOver }

// Stage implements kit.Staged: the phase, and in the auction each
// placement's turn, in the resolution each card's choice.
func (b *board) Stage() string {
	v := b.v
	switch {
	case v.Phase == furnace.AuctionPhase:
		return string(v.Phase) + " " + strconv.Itoa(v.Placed)
	case v.Phase == furnace.ResolvePhase && len(v.Market) > 0:
		return string(v.Phase) + " " + v.Market[0].Card.ID()
	}
	return string(v.Phase)
}

// Header implements kit.Board: the round, the phase and who acts.
func (b *board) Header(t kit.Theme, s kit.Seats) string { return b.HeaderIn(t, s, math.MaxInt) }

// HeaderIn implements kit.Fitted: Header in w columns, the seats still
// choosing or producing shortened, then counted, where their names do
// not fit.
func (b *board) HeaderIn(t kit.Theme, s kit.Seats, w int) string {
	v, p := b.v, t.L
	if v.Phase == furnace.GameOver {
		return p.T("furnace.header.over", "Round", v.Round)
	}
	parts := []string{p.T("furnace.header.round", "Round", v.Round, "Rounds", v.Config.Rounds)}
	switch v.Phase {
	case furnace.AuctionPhase:
		turn := p.T("furnace.header.turnOf", "Name", s.Name(v.Turn))
		if s.Me(v.Turn) {
			turn = t.Accent.Render(p.T("furnace.header.yourTurn"))
		}
		parts = append(parts, p.T("furnace.header.auction"), turn)
	case furnace.ResolvePhase:
		if len(v.Market) > 0 {
			parts = append(parts, p.T("furnace.header.resolving", "Card", v.Market[0].Card.ID()))
		}
		if you, who := b.busySeats(t, s, func(p furnace.Player) bool { return p.Owed > 0 }); len(you)+len(who) > 0 {
			return kit.NameList(s, you, who, w, func(list string) string {
				return strings.Join(append(parts, p.T("furnace.header.choosing", "Names", list)), " · ")
			})
		}
	case furnace.ProductionPhase:
		if you, who := b.busySeats(t, s, func(p furnace.Player) bool { return !p.Done }); len(you)+len(who) > 0 {
			return kit.NameList(s, you, who, w, func(list string) string {
				return strings.Join(append(parts, p.T("furnace.header.producing", "Names", list)), " · ")
			})
		}
		parts = append(parts, p.T("furnace.header.production"))
	}
	return strings.Join(parts, " · ")
}

// busySeats are "you", when is holds for the viewer, and the other
// seats for which it holds.
func (b *board) busySeats(t kit.Theme, s kit.Seats, is func(furnace.Player) bool) (you []string, seats []int) {
	if me := b.v.You(); me != nil && is(*me) {
		you = append(you, t.Accent.Render(t.L.T("furnace.you")))
	}
	for seat, p := range b.v.Players {
		if is(p) && !s.Me(seat) {
			seats = append(seats, seat)
		}
	}
	return you, seats
}

// waiting names the seats other than the viewer's for which busy holds.
func (b *board) waiting(s kit.Seats, busy func(furnace.Player) bool) string {
	var names []string
	for seat, p := range b.v.Players {
		if busy(p) && !s.Me(seat) {
			names = append(names, s.Name(seat))
		}
	}
	return strings.Join(names, ", ")
}

// Banner implements kit.Board: the last round coming to its end.
func (b *board) Banner(t kit.Theme, _ kit.Seats) string {
	v := b.v
	if v.Phase != furnace.GameOver && v.Round == v.Config.Rounds {
		return t.Accent.Render(t.L.T("furnace.banner.lastRound"))
	}
	return ""
}

// Idle implements kit.Board. The menu shows it as it is, so it comes
// wrapped to the narrowest menu (44 columns at 80x24).
func (b *board) Idle(s kit.Seats) string { return strings.Join(wrap(b.idle(s), 42), "\n") }

func (b *board) idle(s kit.Seats) string {
	v, p := b.v, s.L
	me := v.You()
	switch {
	case me == nil:
		return p.T("furnace.idle.watching")
	case v.Phase == furnace.AuctionPhase && me.Out:
		return p.T("furnace.idle.out", "Name", s.Name(v.Turn))
	case v.Phase == furnace.AuctionPhase:
		return p.T("furnace.idle.auction", "Name", s.Name(v.Turn))
	case v.Phase == furnace.ResolvePhase && len(v.Market) > 0:
		return p.T("furnace.idle.compensation", "Names", b.waiting(s, func(p furnace.Player) bool { return p.Owed > 0 }),
			"Card", v.Market[0].Card.ID())
	case v.Phase == furnace.ProductionPhase && me.Done:
		return p.T("furnace.idle.done", "Names", b.waiting(s, func(p furnace.Player) bool { return !p.Done }))
	}
	return p.T("furnace.idle.nothing")
}
