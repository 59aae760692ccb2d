package furnace

import (
	"slices"

	"github.com/smokestack/smokestack/engine"
)

// Taking moves back (Config.Undo). A seat may take back its own last
// moves, newest first, while they changed nothing but its own part of the
// game: nothing in Furnace is hidden, but the Agent's die is a roll, and
// a move another seat has had to answer stands.
//
//   - Production: every move (placing a card in the chain, resolving a
//     card, upgrading) until the seat says done. Production is the seat's
//     own: no other seat's move depends on it.
//   - Auction: a disc, while the turn is still the seat's, which happens
//     only when every other seat has stopped placing. Once the turn
//     passes on, the Agent rolls for its disc, or another seat finds it
//     can place no more, the disc stands.
//   - Resolution: nothing; a compensation choice stands, as the cards go
//     to their winners once everyone has chosen.
//
// So the state keeps, for each such move, the seat as it was before it
// and, for a disc, the market cards it went on: taking it back puts the
// seat back and lifts the disc off.

// undoMark is what a move is judged by once it is played: the seat and
// the shared parts of the game before it.
type undoMark struct {
	engine.Mark[Player, Phase]
	agent Agent
	// out has bit i set when seat i had stopped placing discs.
	out uint8
}

func (g *game) mark() undoMark {
	k := undoMark{Mark: engine.Mark[Player, Phase]{Before: g.me().clone(), Phase: g.Phase, Round: g.Round, RNG: g.RNG}, out: g.outSeats()}
	if g.Agent != nil {
		k.agent = *g.Agent
	}
	return k
}

// Takeback is what one seat may take back now: its Steps since its last
// checkpoint, and why that checkpoint stands.
type Takeback = engine.Takeback[Step]

// Step is one move a seat may take back.
type Step struct {
	// Before is the seat as it was before the move.
	Before Player `json:"before"`
	// Lots are the positions of the market cards a disc went on, in the
	// order placed (a bid with Arthur's paired neutral disc has two).
	Lots []int `json:"lots,omitempty"`
}

func (s *State) outSeats() uint8 {
	var out uint8
	for i := range s.Players {
		if s.Players[i].Out {
			out |= 1 << i
		}
	}
	return out
}

// keep records the move m just played by the seat: a step it may take
// back, or a checkpoint, which clears what it could take back before.
func (g *game) keep(k *undoMark, m Move) {
	if k.NewPhase(g.Phase, g.Round) {
		g.Undo = nil
		return
	}
	why := ""
	var lots []int
	switch m.Kind {
	case Bid:
		switch {
		case g.Turn != g.seat:
			why = "your disc stands once the turn passes on"
		case g.RNG != k.RNG || (g.Agent != nil && *g.Agent != k.agent):
			why = "the Agent placed its disc after yours, so yours stands"
		case g.outSeats() != k.out:
			why = "your disc left another seat no place, so it stands"
		}
		lots = append(lots, g.lot(m.Card))
		if m.Extra != NoCard {
			lots = append(lots, g.lot(m.Extra))
		}
	case Compensate:
		why = "a compensation choice stands"
	case Done:
		why = "you are done with production this round"
	}
	g.Undo.Record(len(g.Players), g.seat, why, func() Step { return Step{Before: k.Before, Lots: lots} })
}

// undoRefusal says why seat may not take a move back now, or "" when it
// may. Its words are constants or kept in the state, so Legal pays no
// allocation to ask.
func undoRefusal(s *State, seat int) string {
	if !s.Config.Undo {
		return "taking moves back is off in this game"
	}
	p := &s.Players[seat]
	t := s.Undo.Of(seat)
	switch {
	case s.Phase == ProductionPhase && p.Done:
		return "nothing to take back: you are done with production this round"
	case len(t.Steps) > 0:
		// Only the seat whose turn it is has discs to take back, and
		// nobody has placed since: each is still on top of its card.
		for _, i := range t.Steps[len(t.Steps)-1].Lots {
			if i < 0 || i >= len(s.Market) || len(s.Market[i].Discs) == 0 || s.Market[i].Discs[len(s.Market[i].Discs)-1].Seat != seat {
				return "your disc stands: another has gone on its card since"
			}
		}
		return ""
	case t.Why != "":
		return "nothing to take back: " + t.Why
	case s.Phase == AuctionPhase && s.Turn == seat:
		return "nothing to take back yet"
	case s.Phase == AuctionPhase:
		return "nothing to take back: a disc stands once the turn passes on"
	case s.Phase == ResolvePhase:
		// No choice of the seat's this phase (that would be t.Why): its
		// discs are what stand, and production will let moves be taken back.
		return "nothing to take back: the auction's discs stand (u works in production)"
	}
	return "nothing to take back yet this production"
}

// undoWords is the message that says why, a reason undoRefusal gives,
// in the player's language.
func undoWords(why string) string {
	switch why {
	case "taking moves back is off in this game":
		return "furnace.refuse.undoOff"
	case "nothing to take back: you are done with production this round":
		return "furnace.refuse.undoDone"
	case "your disc stands: another has gone on its card since":
		return "furnace.refuse.undoCovered"
	case "nothing to take back: your disc stands once the turn passes on":
		return "furnace.refuse.undoTurnPassed"
	case "nothing to take back: the Agent placed its disc after yours, so yours stands":
		return "furnace.refuse.undoAgent"
	case "nothing to take back: your disc left another seat no place, so it stands":
		return "furnace.refuse.undoLeftNoPlace"
	case "nothing to take back: a compensation choice stands":
		return "furnace.refuse.undoCompensation"
	case "nothing to take back yet":
		return "furnace.refuse.undoYet"
	case "nothing to take back: a disc stands once the turn passes on":
		return "furnace.refuse.undoDiscStands"
	case "nothing to take back: the auction's discs stand (u works in production)":
		return "furnace.refuse.undoAuction"
	}
	return "furnace.refuse.undoProduction"
}

// undo takes back the seat's last move.
func (g *game) undo() error {
	if why := undoRefusal(g.State, g.seat); why != "" {
		return refuse(why, undoWords(why))
	}
	return g.Undo.Take(g.seat, "", func(st Step) {
		g.Players[g.seat] = st.Before
		for i := len(st.Lots) - 1; i >= 0; i-- {
			l := &g.Market[st.Lots[i]]
			l.Discs = l.Discs[:len(l.Discs)-1]
		}
		if len(st.Lots) > 0 {
			g.Placed--
		}
		g.emit(g.seat, engine.Undo, "took back a move", engine.Say("log.undo"))
	})
}

// clone returns a deep copy of p that keeps nil and empty slices as they
// are, so that its JSON is p's.
func (p *Player) clone() Player {
	q := *p
	q.Cards = slices.Clone(p.Cards)
	q.New = slices.Clone(p.New)
	return q
}

// clone returns a deep copy of st.
func (st *Step) clone() Step {
	return Step{Before: st.Before.clone(), Lots: slices.Clone(st.Lots)}
}
