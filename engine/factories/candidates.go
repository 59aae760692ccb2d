package factories

import "slices"

// The candidate makers list what a seat could play, in Legal's order, each
// move through l.add, which appends it to out if it is to be kept, or
// straight to out when it is known to be (accepts would say so: a take, a
// build or placement already checked, a Foreman's or Specialist's values). They
// build out by value rather than through l so that the list can stay on
// candidates' stack (see candidates).

// marketCandidates lists the market-phase moves of the seat whose turn it
// is; the list decides which it can pay for.
func marketCandidates(l *moveList, out []Move) []Move {
	s, seat := l.s, l.seat
	p := &s.Players[seat]
	if !s.Refreshed {
		for _, row := range [...]string{BlueprintRow, ContractorRow} {
			for _, pay := range [...]string{"metal", "energy"} {
				out = l.add(out, Move{Kind: Refresh, Row: row, Pay: pay})
			}
		}
	}
	for i := range marketSize {
		if s.Market.Blueprints[i] != None {
			out = append(out, Move{Kind: Take, Slot: i}) // always accepted
		}
	}
	var space [16]Card
	designs := distinctCards(space[:0], p.Hand, -1)
	for i, c := range s.Market.Contractors {
		if c == None {
			continue
		}
		for _, d := range designs {
			if d.info().Tool != s.Market.Tools[i] {
				continue
			}
			if !gift(s.Market.Contractors, i) || s.Solo() {
				out = l.add(out, Move{Kind: Hire, Slot: i, Discard: l.cards(d)})
				continue
			}
			for o := range s.Players {
				if o != seat {
					out = l.add(out, Move{Kind: Hire, Slot: i, Discard: l.cards(d), Opponent: o})
				}
			}
		}
	}
	return l.add(out, Move{Kind: Pass})
}

// workCandidates lists the work-phase moves the seat could make with its
// hand, dice and buildings; the list decides which it can pay for.
func workCandidates(l *moveList, out []Move) []Move {
	s := l.s
	p := &s.Players[l.seat]
	if p.SettingDice {
		// 1+6+21+56+126 multisets of 0 to 4 values, all legal: space for
		// them at once rather than by doubling.
		out = slices.Grow(out, 210)
		var values [4]int
		for n := range 5 {
			out = foremanValues(l, out, values[:0], n, 1)
		}
		return out
	}
	out = l.add(out, Move{Kind: Done})
	for i, d := range p.Dice {
		if d.Chosen && d.Value == 0 {
			for v := 1; v <= 6; v++ {
				out = append(out, Move{Kind: Choose, Dice: l.ints(i), Value: v}) // always accepted
			}
		}
	}
	var space, others [16]Card
	hand := distinctCards(space[:0], p.Hand, -1)
	for _, c := range hand {
		if !l.all && !canBuild(p, c) {
			continue // whatever the discard: not worth making the moves
		}
		for _, d := range distinctCards(others[:0], p.Hand, indexOf(p.Hand, c)) {
			if d.info().Tool == c.info().Tool {
				out = append(out, Move{Kind: Build, Card: c, Discard: l.cards(d)}) // canBuild above
			}
		}
	}
	for _, i := range l.diceCombos(1) {
		for _, a := range [...]string{Research, Generate, Mine} {
			if l.all || canPlace(p, p.Dice[i].Value, a) {
				out = append(out, Move{Kind: Place, Dice: l.ints(i), Action: a})
			}
		}
	}
	for _, b := range p.Compound {
		if b.Used || !activatable(b.Card.info()) {
			continue
		}
		if b.Card.Name() != Replicator {
			out = recipeCandidates(l, out, hand, b.Card.Name(), Move{Kind: Activate, Card: b.Card})
			continue
		}
		for slot, target := range s.Market.Blueprints {
			if target != None {
				out = recipeCandidates(l, out, hand, target.Name(), Move{Kind: Activate, Card: b.Card, Slot: slot})
			}
		}
	}
	if len(p.Hand) > HandLimit {
		for _, c := range hand {
			out = l.add(out, Move{Kind: DiscardDown, Discard: l.cards(c)})
		}
	}
	if over := p.Metal + p.Energy - StoreLimit; over > 0 {
		out = l.add(out, Move{Kind: DiscardDown, Metal: 1})
		out = l.add(out, Move{Kind: DiscardDown, Energy: 1})
		// And every split that meets the limit at once, so a player 7 over
		// gives up their choice of resources in one move, not seven.
		for metal := min(over, p.Metal); over > 1 && metal >= over-p.Energy && metal >= 0; metal-- {
			out = l.add(out, Move{Kind: DiscardDown, Metal: metal, Energy: over - metal})
		}
	}
	return out
}

// foremanValues lists a setdice move for each sorted multiset of n die
// values that extends values with values of at least from.
func foremanValues(l *moveList, out []Move, values []int, n, from int) []Move {
	if len(values) == n {
		return append(out, Move{Kind: SetDice, Values: l.ints(values...)}) // always accepted
	}
	for v := from; v <= 6; v++ {
		out = foremanValues(l, out, append(values, v), n, v)
	}
	return out
}

// recipeCandidates lists base with each choice of dice, discards and
// options recipe name could take (hand is one card of each design in the
// hand); the list decides which are affordable.
func recipeCandidates(l *moveList, out []Move, hand []Card, name string, base Move) []Move {
	p := &l.s.Players[l.seat]
	withDice := func(n int, m Move) {
		combos := l.diceCombos(n)
		for i := 0; i < len(combos); i += n {
			d := combos[i : i+n]
			// Apply refuses dice that break the card's pattern with this same
			// check, so skipping them here only saves deciding them.
			var values [16]int
			vals := values[:0]
			for _, x := range d {
				vals = append(vals, p.Dice[x].Value)
			}
			if !workersFit(name, vals) {
				continue
			}
			// Decided on the combination itself; only a kept move gets
			// a copy of its own.
			m.Dice = d
			if l.all || accepts(l.s, l.seat, m) {
				m.Dice = l.ints(d...)
				out = append(out, m)
			}
		}
	}
	switch name {
	case BatteryFactory, Robot:
		out = l.add(out, base)
	case Golem:
		for v := 1; v <= 6; v++ {
			m := base
			m.Value = v
			out = l.add(out, m)
		}
	case Incinerator, Refinery:
		for _, c := range hand {
			m := base
			m.Discard = l.cards(c)
			out = l.add(out, m)
		}
	case RecyclingPlant:
		var pairs [64][2]Card
		for _, pair := range cardPairs(pairs[:0], p.Hand) {
			m := base
			m.Discard = l.cards(pair[:]...)
			out = l.add(out, m)
		}
	case Biolab, FulfillmentCenter, NuclearPlant, Foundry, Motherlode, PowerPlant, Dojo, FitnessCenter, Gymnasium:
		withDice(1, base)
	case BlackMarket:
		for _, c := range hand {
			m := base
			m.Discard = l.cards(c)
			b := c.info()
			if b.Metal+b.Energy <= 4 {
				withDice(1, m)
				continue
			}
			for metal := max(0, 4-b.Energy); metal <= min(b.Metal, 4); metal++ {
				m.Metal, m.Energy = metal, 4-metal
				withDice(1, m)
			}
		}
	case AluminumFactory, ConcretePlant:
		withDice(2, base)
	case TrashCompactor:
		var pairs [64][2]Card
		for _, pair := range cardPairs(pairs[:0], p.Hand) {
			m := base
			m.Discard = l.cards(pair[:]...)
			withDice(2, m)
		}
	case Harvester:
		for _, c := range [...]string{"metal", "energy"} {
			m := base
			m.Choice = c
			withDice(2, m)
		}
	case Manufactory:
		for _, c := range [...]string{"metal", "energy", "draw"} {
			m := base
			m.Choice = c
			withDice(2, m)
		}
	case MegaFactory:
		for v := 1; v <= 6; v++ {
			m := base
			m.Value = v
			withDice(3, m)
		}
	case AssemblyLine, Warehouse:
		withDice(3, base)
	case TempAgency:
		for n := 1; n <= len(p.Dice); n++ {
			withDice(n, base)
		}
	}
	return out
}

// diceCombos appends to out the ways to pick n unplaced, set dice, n
// indexes each, once per multiset of values (equal dice are
// interchangeable), using the lowest indexes.
func diceCombos(out []int, dice []Die, n int) []int {
	var space, chosen [16]int // most seats have few dice: no allocation for them
	free := space[:0]
	for i, d := range dice {
		if !d.Placed && d.Value != 0 {
			free = append(free, i)
		}
	}
	// By value, and by index among equal values (free is in index order).
	slices.SortStableFunc(free, func(a, b int) int { return dice[a].Value - dice[b].Value })
	return appendCombos(out, dice, free, chosen[:0], n, 0)
}

// appendCombos appends the combinations that extend chosen to n dice with
// dice from free[start:].
func appendCombos(out []int, dice []Die, free, chosen []int, n, start int) []int {
	if len(chosen) == n {
		return append(out, chosen...)
	}
	for i := start; i < len(free); i++ {
		// Skip a die equal to the one before it at this depth: same multiset.
		if i > start && dice[free[i]].Value == dice[free[i-1]].Value {
			continue
		}
		out = appendCombos(out, dice, free, append(chosen, free[i]), n, i+1)
	}
	return out
}

// distinctCards appends to out one card of each design in hand, in hand
// order, leaving out the card at index skip (none when skip is -1): the
// other copy of that design, if any, is the one listed.
func distinctCards(out, hand []Card, skip int) []Card {
	var seen designSet
	for i, c := range hand {
		if i != skip && seen.add(c) {
			out = append(out, c)
		}
	}
	return out
}

// designSet is a set of blueprint designs that lives on the stack: Legal
// asks for distinct designs often enough that a map per call shows up.
type designSet struct {
	bits [4]uint64
	more map[int]bool // designs past 255, for a card table that large
}

// add puts c's design in the set and reports whether it was new. Cards
// outside the table count as one design, as their shared name does.
func (d *designSet) add(c Card) bool {
	k := design(c)
	if k < 64*len(d.bits) {
		w, b := k/64, uint64(1)<<(k%64)
		if d.bits[w]&b != 0 {
			return false
		}
		d.bits[w] |= b
		return true
	}
	if d.more[k] {
		return false
	}
	if d.more == nil {
		d.more = map[int]bool{}
	}
	d.more[k] = true
	return true
}

// cardPairs appends to out the distinct pairs of designs that can be
// discarded from hand together.
func cardPairs(out [][2]Card, hand []Card) [][2]Card {
	var space, others [16]Card
	designs := distinctCards(space[:0], hand, -1)
	for i, a := range designs {
		for _, b := range distinctCards(others[:0], hand, indexOf(hand, a)) {
			// Keep each unordered pair once: b at or after a in design order.
			if indexOfDesign(designs, b) >= i {
				out = append(out, [2]Card{a, b})
			}
		}
	}
	return out
}

// indexOfDesign returns the index of the card in cards with c's design.
func indexOfDesign(cards []Card, c Card) int {
	k := design(c)
	return slices.IndexFunc(cards, func(d Card) bool { return design(d) == k })
}

// design is the index of c's printed design in the card table; every card
// outside the table counts as one more design, as their shared name does.
func design(c Card) int {
	if c >= 0 && int(c) < len(cardKind) {
		return cardKind[c]
	}
	return len(cardKind)
}
