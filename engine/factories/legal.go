package factories

import "slices"

// Legal lists the moves seat can make now. Moves that differ only in which
// of two equal dice or two copies of a card they use are listed once.
// Candidates come from the state (the hand, the free dice, the card's
// recipe) and are kept when Apply would accept them (see accepts).
func Legal(s State, seat int) []Move {
	// The list is built on the stack and copied out at its final length:
	// a Move is large, and growing lists of them on the heap made half of
	// the bytes Legal allocated.
	var space [32]Move
	var combos [96]int
	arena := moveArena{combos: combos[:0]}
	out := candidates(&s, seat, false, &arena, space[:0])
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// MoveBuffer holds a seat's legal moves for a caller that asks for them
// over and over, as a search does at every position: its Legal reuses the
// buffer's arrays, so once they have grown it allocates nothing.
type MoveBuffer struct {
	moves []Move
	arena moveArena
}

// Legal is Legal for s without copying s or the list: the moves, and the
// dice and discards they name, are b's and stay valid only until b's next
// call.
func (b *MoveBuffer) Legal(s *State, seat int) []Move {
	b.arena.ints, b.arena.cards, b.arena.combos = b.arena.ints[:0], b.arena.cards[:0], b.arena.combos[:0]
	b.moves = candidates(s, seat, false, &b.arena, b.moves[:0])
	return b.moves
}

// candidates appends seat's candidate moves to out in Legal's order: all
// of them, or those accepts takes; their dice and discards are carved
// from arena.
func candidates(s *State, seat int, all bool, arena *moveArena, out []Move) []Move {
	if seat < 0 || seat >= len(s.Players) {
		return out
	}
	l := moveList{s: s, seat: seat, all: all, arena: arena}
	switch s.Phase {
	case MarketPhase:
		if seat == s.Turn {
			out = marketCandidates(&l, out)
		}
	case WorkPhase:
		if !s.Players[seat].Done {
			out = workCandidates(&l, out)
		}
	}
	if all || s.Config.Undo {
		out = l.add(out, Move{Kind: Undo})
	}
	return out
}

// moveList is what the candidate makers share for one seat: the state,
// whether to keep every candidate or those accepts takes, and the arena
// their dice and discards are carved from.
type moveList struct {
	s     *State
	seat  int
	all   bool
	arena *moveArena
	// combos[n] is where the arena holds diceCombos for n dice (1 to 3),
	// once worked out: every recipe of that many dice, and each of its
	// options, picks from the same ones. Offsets, not slices, so that
	// nothing the list points to escapes through it.
	combos [4]struct{ start, end int }
	// byValue is the seat's free dice by value once filled is 1 (-1: a die
	// the rules never make, see diceByValue.fill), for diceCombos.
	byValue diceByValue
	filled  int
}

// diceCombos returns the ways to pick n of the seat's free dice (see
// diceCombos), worked out once per list for the usual 1 to 3.
func (l *moveList) diceCombos(n int) []int {
	if n < len(l.combos) && l.combos[n].end > 0 {
		return l.arena.combos[l.combos[n].start:l.combos[n].end:l.combos[n].end]
	}
	dice := l.s.Players[l.seat].Dice
	if l.filled == 0 {
		l.filled = 1
		if !l.byValue.fill(dice) {
			l.filled = -1
		}
	}
	start := len(l.arena.combos)
	if l.filled > 0 {
		l.arena.combos = l.byValue.combos(l.arena.combos, dice, n)
	} else {
		l.arena.combos = allDiceCombos(l.arena.combos, dice, n)
	}
	end := len(l.arena.combos)
	if n < len(l.combos) && end > start {
		l.combos[n].start, l.combos[n].end = start, end
	}
	return l.arena.combos[start:end:end]
}

// moveArena holds the arrays the moves' dice and discards are carved from
// (see ints and cards), so a Legal call makes a few allocations, not one or
// two per move. It is apart from moveList so that the compiler can keep the
// list, and the state it points to, on the stack.
type moveArena struct {
	ints   []int  // for Dice and Values
	cards  []Card // for Discard
	combos []int  // for moveList.combos
}

// add appends m to out unless Apply would refuse it.
func (l *moveList) add(out []Move, m Move) []Move {
	if l.all || acceptsAt(l.s, l.seat, &m) {
		out = append(out, m)
	}
	return out
}

// ints returns a copy of v for a move's Dice or Values, carved from the
// list's shared arena; nil when v is empty, as a move without dice has it.
func (l *moveList) ints(v ...int) []int {
	if len(v) == 0 {
		return nil
	}
	return carve(&l.arena.ints, v)
}

// cards returns a copy of v for a move's Discard (see ints).
func (l *moveList) cards(v ...Card) []Card {
	if len(v) == 0 {
		return nil
	}
	return carve(&l.arena.cards, v)
}

// accepts reports whether Apply would accept m, a candidate that
// marketCandidates or workCandidates made for seat, without playing it.
// A candidate is well formed by construction: its cards are in the hand or
// the marketplace, its dice are the seat's own, free and fit the card's
// pattern, its choices are among the card's options, and it is the seat's
// turn. What is left is what Apply checks against the seat's resources and
// limits, asked here through the helpers Apply's own checks use
// (buildCost, owns, hqTakes, hqAction, recipeCost, canDraft). Playing each
// candidate on a copy of the game gives the same answer at many times the
// cost; TestLegalMatchesItsDefinition and TestAcceptsMatchesApply hold the
// two together.
func accepts(s *State, seat int, m Move) bool { return acceptsAt(s, seat, &m) }

// acceptsAt is accepts for a move it reads in place: Legal asks it of many
// candidates, and a Move is too large to copy for each.
func acceptsAt(s *State, seat int, m *Move) bool {
	p := &s.Players[seat]
	switch m.Kind {
	case Refresh:
		switch m.Pay {
		case "metal":
			return p.Metal >= 1
		case "energy":
			return p.Energy >= 1
		}
	case Take, SetDice, Choose:
		return true
	case Hire:
		return p.Energy >= s.Market.Contractors[m.Slot].info().Energy
	case Pass:
		return !canDraft(s, seat)
	case Build:
		return canBuild(p, m.Card)
	case Place:
		return canPlace(p, p.Dice[m.Dice[0]].Value, m.Action)
	case Activate:
		r, energy := m.Card.facts().recipe, 0
		if r == replicator {
			// Replicator takes its 1 energy before the copied recipe pays.
			r, energy = s.Market.Blueprints[m.Slot].facts().recipe, 1
		}
		var space [8]int
		dice := space[:0]
		for _, d := range m.Dice {
			dice = append(dice, p.Dice[d].Value)
		}
		return canPayRecipe(p, r, energy, m.Value, dice)
	case DiscardDown:
		return m.Metal <= p.Metal && m.Energy <= p.Energy
	case Done:
		return p.Metal+p.Energy <= StoreLimit && len(p.Hand) <= HandLimit
	case Undo:
		return undoRefusal(s, seat) == ""
	}
	return false
}

// canBuild reports whether p may build c and pay for it, whatever it
// discards: what build refuses of a card in hand with a discard of its tool.
func canBuild(p *Player, c Card) bool {
	metal, energy := buildCost(p, c)
	return p.Metal >= metal && p.Energy >= energy && !owns(p, c) // the cheap test first
}

// canPayRecipe reports whether p can pay for recipe r run with the move's
// value (see recipeCost) and dice showing dice, energy already spent on it
// (a Replicator's).
func canPayRecipe(p *Player, r recipe, energy, value int, dice []int) bool {
	rm, re := recipeCost(r, value, dice)
	return p.Metal >= rm && p.Energy >= energy+re
}

// canPlace reports whether p may place a free die showing v on action.
func canPlace(p *Player, v int, action string) bool {
	return hqTakes(action, v) && len(*hqAction(p, action)) < 3
}
