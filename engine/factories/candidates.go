package factories

import "slices"

// The candidate makers list what a seat could play, in Legal's order, and
// hand each move to the list, which decides whether it is kept.

func marketCandidates(l *moveList) {
	s, seat := l.s, l.seat
	p := &s.Players[seat]
	if !s.Refreshed {
		for _, row := range [...]string{BlueprintRow, ContractorRow} {
			for _, pay := range [...]string{"metal", "energy"} {
				l.add(Move{Kind: Refresh, Row: row, Pay: pay})
			}
		}
	}
	for i := range marketSize {
		if s.Market.Blueprints[i] != None {
			l.add(Move{Kind: Take, Slot: i})
		}
	}
	var space [16]Card
	designs := distinctCards(space[:0], p.Hand, -1)
	for i, c := range s.Market.Contractors {
		if c == None {
			continue
		}
		for _, d := range designs {
			if d.Info().Tool != s.Market.Tools[i] {
				continue
			}
			if !gift(s.Market.Contractors, i) || s.Solo() {
				l.add(Move{Kind: Hire, Slot: i, Discard: l.cards(d)})
				continue
			}
			for o := range s.Players {
				if o != seat {
					l.add(Move{Kind: Hire, Slot: i, Discard: l.cards(d), Opponent: o})
				}
			}
		}
	}
	l.add(Move{Kind: Pass})
}

// workCandidates lists the work-phase moves the seat could make with its
// hand, dice and buildings; the list decides which it can pay for.
func workCandidates(l *moveList) {
	s := l.s
	p := &s.Players[l.seat]
	if p.SettingDice {
		var values [4]int
		for n := range 5 {
			foremanValues(l, values[:0], n, 1)
		}
		return
	}
	l.add(Move{Kind: Done})
	for i, d := range p.Dice {
		if d.Chosen && d.Value == 0 {
			for v := 1; v <= 6; v++ {
				l.add(Move{Kind: Choose, Dice: l.ints(i), Value: v})
			}
		}
	}
	var space, others [16]Card
	hand := distinctCards(space[:0], p.Hand, -1)
	for _, c := range hand {
		for _, d := range distinctCards(others[:0], p.Hand, indexOf(p.Hand, c)) {
			if d.Info().Tool == c.Info().Tool {
				l.add(Move{Kind: Build, Card: c, Discard: l.cards(d)})
			}
		}
	}
	var combos [16]int
	for _, i := range diceCombos(combos[:0], p.Dice, 1) {
		for _, a := range [...]string{Research, Generate, Mine} {
			l.add(Move{Kind: Place, Dice: l.ints(i), Action: a})
		}
	}
	for _, b := range p.Compound {
		if b.Used || !activatable(b.Card.Info()) {
			continue
		}
		if b.Card.Name() != Replicator {
			recipeCandidates(l, b.Card.Name(), Move{Kind: Activate, Card: b.Card})
			continue
		}
		for slot, target := range s.Market.Blueprints {
			if target != None {
				recipeCandidates(l, target.Name(), Move{Kind: Activate, Card: b.Card, Slot: slot})
			}
		}
	}
	if len(p.Hand) > HandLimit {
		for _, c := range hand {
			l.add(Move{Kind: DiscardDown, Discard: l.cards(c)})
		}
	}
	if p.Metal+p.Energy > StoreLimit {
		l.add(Move{Kind: DiscardDown, Metal: 1})
		l.add(Move{Kind: DiscardDown, Energy: 1})
	}
}

// foremanValues adds a setdice move for each sorted multiset of n die
// values that extends values with values of at least from.
func foremanValues(l *moveList, values []int, n, from int) {
	if len(values) == n {
		l.add(Move{Kind: SetDice, Values: l.ints(values...)})
		return
	}
	for v := from; v <= 6; v++ {
		foremanValues(l, append(values, v), n, v)
	}
}

// recipeCandidates adds base with each choice of dice, discards and options
// recipe name could take; the list decides which are affordable.
func recipeCandidates(l *moveList, name string, base Move) {
	p := &l.s.Players[l.seat]
	withDice := func(n int, m Move) {
		var space [64]int
		combos := diceCombos(space[:0], p.Dice, n)
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
			m.Dice = l.ints(d...)
			l.add(m)
		}
	}
	var space [16]Card
	switch name {
	case BatteryFactory, Robot:
		l.add(base)
	case Golem:
		for v := 1; v <= 6; v++ {
			m := base
			m.Value = v
			l.add(m)
		}
	case Incinerator, Refinery:
		for _, c := range distinctCards(space[:0], p.Hand, -1) {
			m := base
			m.Discard = l.cards(c)
			l.add(m)
		}
	case RecyclingPlant:
		var pairs [64][2]Card
		for _, pair := range cardPairs(pairs[:0], p.Hand) {
			m := base
			m.Discard = l.cards(pair[:]...)
			l.add(m)
		}
	case Biolab, FulfillmentCenter, NuclearPlant, Foundry, Motherlode, PowerPlant, Dojo, FitnessCenter, Gymnasium:
		withDice(1, base)
	case BlackMarket:
		for _, c := range distinctCards(space[:0], p.Hand, -1) {
			m := base
			m.Discard = l.cards(c)
			b := c.Info()
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
	k := len(cardKind) // every unknown card
	if c >= 0 && int(c) < len(cardKind) {
		k = cardKind[c]
	}
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
			if indexOfName(designs, b.Name()) >= i {
				out = append(out, [2]Card{a, b})
			}
		}
	}
	return out
}

func indexOfName(cards []Card, name string) int {
	return slices.IndexFunc(cards, func(c Card) bool { return c.Name() == name })
}
