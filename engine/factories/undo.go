package factories

import (
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Taking moves back (Config.Undo), with engine.Takebacks: a seat may
// take back its last moves of the work phase under way, newest first, as long as they
// revealed nothing and rolled nothing: a move that draws a blueprint,
// shows a card from the hand (a build, the Black Market), rolls or
// rerolls a die, triggers the end of the game, or finishes the work phase
// is a checkpoint, and stands for good, with every move before it. The
// market phase has nothing to take back: every move there shows new
// cards from the deck or passes the turn.
//
// A work-phase move that is not a checkpoint changes only the seat's own
// record and adds cards to the discard pile, which no view shows but by
// its size. So the state keeps, for each such move, the seat as it was
// before it and the cards it discarded: taking it back puts the seat back
// and lifts those cards off the pile. Other seats' moves since then are
// untouched, and the result is the game as if the move had never been
// played, unless one of them shuffled the pile into a new deck, which
// took those cards: the move then stands.

// Takeback is what one seat may take back in the work phase under way:
// its Steps since its last checkpoint, and why that checkpoint stands.
type Takeback = engine.Takeback[Step]

// Step is one work-phase move a seat may take back.
type Step struct {
	// Before is the seat before the move: taking it back restores it.
	Before Player `json:"before"`
	// Discarded are the cards the move put on the discard pile.
	Discarded []Card `json:"discarded,omitempty"`
	// Reshuffles is State.Reshuffles after the move: once the pile has
	// been shuffled into a new deck, the cards are no longer there to
	// lift off.
	Reshuffles int `json:"reshuffles,omitempty"`
}

// undoMark is the seat and the shared parts of the game before a move:
// once the move is played, keep tells by them whether it may be taken
// back.
type undoMark struct {
	engine.Mark[Player, Phase]
	deck, discard, reshuffles, finalRound int
}

func (g *game) mark() undoMark {
	return undoMark{Mark: engine.Mark[Player, Phase]{Before: g.me().clone(), Phase: g.Phase, Round: g.Round, RNG: g.RNG},
		deck: len(g.Deck), discard: len(g.Discard), reshuffles: g.Reshuffles, finalRound: g.FinalRound}
}

// keep records the move just played by the seat: a step it may take back,
// or a checkpoint, which clears what it could take back before.
func (g *game) keep(k *undoMark) {
	if k.NewPhase(g.Phase, g.Round) {
		g.Undo = nil
		return
	}
	if g.Phase != WorkPhase {
		return // the market: nothing is ever kept (see above)
	}
	why := ""
	switch {
	case g.me().Done:
		why = "you are done with this work phase"
	case g.FinalRound != k.finalRound:
		why = "you triggered the end of the game, so it stands"
	case g.revealed != "":
		why = g.revealed
	case g.Reshuffles != k.reshuffles || len(g.Deck) != k.deck:
		why = "you drew a blueprint, and a draw cannot be taken back"
	case g.RNG != k.RNG:
		why = "you rolled dice, and a roll cannot be taken back"
	}
	g.Undo.Record(len(g.Players), g.seat, why, func() Step {
		return Step{Before: k.Before, Discarded: slices.Clone(g.Discard[k.discard:]), Reshuffles: g.Reshuffles}
	})
}

// undoRefusal says why seat may not take a move back now, or "" when it
// may. The words are constants or kept in the state, so Legal pays no
// allocation to ask.
func undoRefusal(s *State, seat int) string {
	if !s.Config.Undo {
		return "taking moves back is off in this game"
	}
	if s.Phase != WorkPhase {
		return "nothing to take back: market moves show new cards or pass the turn"
	}
	if s.Players[seat].Done {
		return "nothing to take back: you are done with this work phase"
	}
	t := s.Undo.Of(seat)
	if len(t.Steps) == 0 {
		if t.Why != "" {
			return "nothing to take back: " + t.Why
		}
		return "nothing to take back yet this work phase"
	}
	last := &t.Steps[len(t.Steps)-1]
	if last.Reshuffles != s.Reshuffles && len(last.Discarded) > 0 {
		return "your last move stands: its discards were shuffled into a new deck"
	}
	for _, c := range last.Discarded {
		if indexOf(s.Discard, c) < 0 {
			return "your last move stands: its discards are no longer on the pile"
		}
	}
	return ""
}

// undo plays the undo move: the seat's last work-phase move is lifted.
func (g *game) undo() error {
	why := undoRefusal(g.State, g.seat)
	if why != "" {
		return undoRefused(why)
	}
	return g.Undo.Take(g.seat, why, func(st Step) {
		for _, c := range st.Discarded {
			i := indexOf(g.Discard, c)
			g.Discard = slices.Delete(g.Discard, i, i+1)
		}
		g.Players[g.seat] = st.Before
		g.emit(g.seat, engine.Undo, engine.Say("log.undo"), "took back a move")
	})
}

// clone is a deep copy of p, nil and empty slices kept as they are: its
// JSON is p's.
func (p *Player) clone() Player {
	q := *p
	q.Hand = slices.Clone(p.Hand)
	q.Dice = slices.Clone(p.Dice)
	q.HQ = Headquarters{slices.Clone(p.HQ.Research), slices.Clone(p.HQ.Generate), slices.Clone(p.HQ.Mine)}
	q.Compound = slices.Clone(p.Compound)
	for j := range q.Compound {
		q.Compound[j].Dice = slices.Clone(p.Compound[j].Dice)
	}
	return q
}

// clone is a deep copy of st.
func (st *Step) clone() Step {
	return Step{Before: st.Before.clone(), Discarded: slices.Clone(st.Discarded), Reshuffles: st.Reshuffles}
}
