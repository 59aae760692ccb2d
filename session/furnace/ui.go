// Package furnace draws Furnace for the generic game and replay screens of
// package session: the market with the discs on it, every seat's companies
// and goods, the move menu's groups, the card reference and the rules, all
// from a seat's view alone.
package furnace

import (
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
}

// Over implements kit.Board.
func (b *board) Over() bool { return b.v.Phase == furnace.GameOver }

// Header implements kit.Board: the round, the phase and who acts.
func (b *board) Header(t kit.Theme, s kit.Seats) string {
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
		if who := b.busy(t, s, func(p furnace.Player) bool { return p.Owed > 0 }); who != "" {
			parts = append(parts, p.T("furnace.header.choosing", "Names", who))
		}
	case furnace.ProductionPhase:
		if who := b.busy(t, s, func(p furnace.Player) bool { return !p.Done }); who != "" {
			parts = append(parts, p.T("furnace.header.producing", "Names", who))
		} else {
			parts = append(parts, p.T("furnace.header.production"))
		}
	}
	return strings.Join(parts, " · ")
}

// busy names the seats for which is holds, "you" first.
func (b *board) busy(t kit.Theme, s kit.Seats, is func(furnace.Player) bool) string {
	var names []string
	if me := b.v.You(); me != nil && is(*me) {
		names = append(names, t.Accent.Render(t.L.T("furnace.you")))
	}
	if others := b.waiting(s, is); others != "" {
		names = append(names, others)
	}
	return strings.Join(names, ", ")
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
