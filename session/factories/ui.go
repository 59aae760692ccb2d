// Package factories draws Fantastic Factories for the generic game and
// replay screens of package session: the marketplace, every seat's
// compound, the move menu's groups and the card reference, all from a
// seat's view alone.
package factories

import (
	"fmt"
	"strings"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// UI is Fantastic Factories' screens, registered for rooms whose game is
// "factories".
var UI kit.Game = kit.Screens[factories.View]{
	Board: func(v *factories.View) kit.Board { return &board{v: v} },
	// The rules speak English until their catalogue lands (issue 27).
	Pages: func(*lang.Printer) []kit.RulesPage { return rules() },
}

// board is one seat's (or a spectator's) view, drawn.
type board struct {
	v *factories.View
	// The parts of the seated board that the menu's moving leaves as
	// they were: the marketplace, the seat's own area and the others.
	market, you, others kit.Part
	// previews holds the cards' texts as the menu's preview showed them,
	// by theme, card and width: the menu moves back and forth among a
	// few.
	previews map[preview]string
}

type preview struct {
	styles *kit.Styles
	card   kit.CardRef
	w      int
}

// Over implements kit.Board.
func (b *board) Over() bool { return b.v.Phase == factories.GameOver }

// Header implements kit.Board: the round, the phase and who acts.
func (b *board) Header(t kit.Theme, s kit.Seats) string {
	v := b.v
	if v.Phase == factories.GameOver {
		return fmt.Sprintf("round %d · game over", v.Round)
	}
	round := fmt.Sprintf("round %d", v.Round)
	if v.FinalRound > 0 {
		round += fmt.Sprintf(" of %d", v.FinalRound)
	}
	parts := []string{round}
	switch v.Phase {
	case factories.MarketPhase:
		turn := s.Name(v.Turn) + "'s turn"
		if s.Me(v.Turn) {
			turn = t.Accent.Render("your turn")
		}
		parts = append(parts, "market phase", turn)
	case factories.WorkPhase:
		// Who is still working, you first: short enough for 80 columns.
		var working []string
		if v.Seat >= 0 && !v.You().Done {
			working = append(working, t.Accent.Render("you"))
		}
		for _, p := range v.Players {
			if !p.Done && !s.Me(p.Seat) {
				working = append(working, s.Name(p.Seat))
			}
		}
		parts = append(parts, "work phase · working: "+strings.Join(working, ", "))
	}
	return strings.Join(parts, " · ")
}

// Banner implements kit.Board: the end of the game coming.
func (b *board) Banner(t kit.Theme, s kit.Seats) string {
	if b.v.EndCause != "" && b.v.Phase != factories.GameOver {
		return t.Accent.Render(fmt.Sprintf("the end is near: %s; round %d is the last", endCause(b.v, s, false), b.v.FinalRound))
	}
	return ""
}

// endCause words what triggered the end, naming who: "bob has 12
// goods". past words it as it was then, for the final scores, whose own
// numbers may be higher: "bob had 12 goods".
func endCause(v *factories.View, s kit.Seats, past bool) string {
	cause := v.EndCause
	switch {
	case past:
		cause = strings.Replace(cause, "has ", "had ", 1)
	case s.Me(v.EndSeat):
		cause = strings.Replace(cause, "has ", "have ", 1)
	}
	switch {
	case v.EndSeat < 0:
		return "The Machine " + cause
	case s.Me(v.EndSeat):
		return "you " + cause
	}
	return s.Name(v.EndSeat) + " " + cause
}

// Idle implements kit.Board.
func (b *board) Idle(s kit.Seats) string {
	switch {
	case b.v.Phase == factories.MarketPhase && !s.Me(b.v.Turn):
		return "waiting for " + s.Name(b.v.Turn) + " to choose"
	case b.v.Phase == factories.WorkPhase && b.v.You().Done:
		return "you are done: waiting for the others to finish working"
	}
	return "nothing to do right now"
}
