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
	var space [16]handDesign
	designs := handDesigns(space[:0], p.Hand)
	for i, c := range s.Market.Contractors {
		if c == None {
			continue
		}
		for _, e := range designs {
			d := e.card
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
	var space [16]handDesign
	var others [16]Card
	hand := handDesigns(space[:0], p.Hand)
	for i, e := range hand {
		c := e.card
		if !l.all && !canBuild(p, c) {
			continue // whatever the discard: not worth making the moves
		}
		tool := c.facts().tool
		for _, d := range pairedWith(others[:0], p.Hand, hand, i, false) {
			if d.facts().tool == tool {
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
	for k := range p.Compound {
		b := &p.Compound[k] // not a copy: a Building is large
		f := b.Card.facts()
		if b.Used || !f.activatable {
			continue
		}
		if f.recipe != replicator {
			out = recipeCandidates(l, out, hand, f.recipe, Move{Kind: Activate, Card: b.Card})
			continue
		}
		for slot, target := range s.Market.Blueprints {
			if target != None {
				out = recipeCandidates(l, out, hand, target.facts().recipe, Move{Kind: Activate, Card: b.Card, Slot: slot})
			}
		}
	}
	if len(p.Hand) > HandLimit {
		for _, e := range hand {
			out = l.add(out, Move{Kind: DiscardDown, Discard: l.cards(e.card)})
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
// options recipe r could take (hand is the hand's designs); the list
// decides which are affordable.
func recipeCandidates(l *moveList, out []Move, hand []handDesign, r recipe, base Move) []Move {
	rm := recipeMoves{l: l, p: &l.s.Players[l.seat], r: r}
	if base.Card.facts().recipe == replicator {
		rm.spent = 1 // what accepts charges before the recipe pays: a Replicator's energy
	}
	if out, ok := rm.withoutDice(out, hand, base); ok {
		return out
	}
	return rm.withDiceOf(out, hand, base)
}

// recipeMoves lists the moves of one recipe r for recipeCandidates. Its
// methods take the list and return it longer, rather than keep it: a
// list kept behind a pointer would move Legal's stack arrays to the heap.
type recipeMoves struct {
	l     *moveList
	p     *Player
	r     recipe
	spent int
}

// withoutDice lists the moves of a recipe that takes no dice, and
// reports whether the recipe is one.
func (rm recipeMoves) withoutDice(out []Move, hand []handDesign, base Move) ([]Move, bool) {
	l := rm.l
	switch rm.r {
	case batteryFactory, robot:
		out = l.add(out, base)
	case golem:
		for v := 1; v <= 6; v++ {
			m := base
			m.Value = v
			out = l.add(out, m)
		}
	case incinerator, refinery:
		for _, e := range hand {
			m := base
			m.Discard = l.cards(e.card)
			out = l.add(out, m)
		}
	case recyclingPlant:
		var pairs [64][2]Card
		for _, pair := range cardPairs(pairs[:0], rm.p.Hand, hand) {
			m := base
			m.Discard = l.cards(pair[:]...)
			out = l.add(out, m)
		}
	default:
		return out, false
	}
	return out, true
}

// withDiceOf lists the moves of a recipe that takes dice: each choice of
// its options with each set of dice that fits.
func (rm recipeMoves) withDiceOf(out []Move, hand []handDesign, base Move) []Move {
	switch rm.r {
	case biolab, fulfillmentCenter, nuclearPlant, foundry, motherlode, powerPlant, dojo, fitnessCenter, gymnasium:
		out, _ = rm.withDice(out, 1, base)
	case blackMarket:
		for _, e := range hand {
			c := e.card
			m := base
			m.Discard = rm.l.cards(c)
			b := c.info()
			if b.Metal+b.Energy <= 4 {
				out, _ = rm.withDice(out, 1, m)
				continue
			}
			for metal := max(0, 4-b.Energy); metal <= min(b.Metal, 4); metal++ {
				m.Metal, m.Energy = metal, 4-metal
				out, _ = rm.withDice(out, 1, m)
			}
		}
	case aluminumFactory, concretePlant:
		out, _ = rm.withDice(out, 2, base)
	case trashCompactor:
		var pairs [64][2]Card
		for _, pair := range cardPairs(pairs[:0], rm.p.Hand, hand) {
			m := base
			m.Discard = rm.l.cards(pair[:]...)
			out, _ = rm.withDice(out, 2, m)
		}
	case harvester, manufactory:
		choices := [...]string{"metal", "energy", "draw"}
		n := 3
		if rm.r == harvester {
			n = 2 // no draw
		}
		for _, c := range choices[:n] {
			m := base
			m.Choice = c
			out, _ = rm.withDice(out, 2, m)
		}
	case megaFactory:
		for v := 1; v <= 6; v++ {
			m := base
			m.Value = v
			out, _ = rm.withDice(out, 3, m)
		}
	case assemblyLine, warehouse:
		out, _ = rm.withDice(out, 3, base)
	case tempAgency:
		for n := 1; n <= len(rm.p.Dice); n++ {
			var free bool
			if out, free = rm.withDice(out, n, base); !free {
				break // fewer than n free dice, so fewer than n+1
			}
		}
	}
	return out
}

// withDice lists m with each n dice that fit and reports whether there
// were n free dice to try.
func (rm recipeMoves) withDice(out []Move, n int, m Move) ([]Move, bool) {
	l, p := rm.l, rm.p
	var values [16]int
	combos := l.diceCombos(n)
	for i := 0; i < len(combos); i += n {
		d := combos[i : i+n]
		// Apply refuses dice that break the card's pattern with this same
		// check, so skipping them here only saves deciding them.
		vals := values[:0]
		for _, x := range d {
			vals = append(vals, p.Dice[x].Value)
		}
		if !workersFit(rm.r, vals) {
			continue
		}
		// What accepts decides of m with these dice, on their values at
		// hand; only a kept move gets a copy of its dice.
		if l.all || canPayRecipe(p, rm.r, rm.spent, m.Value, vals) {
			m.Dice = l.ints(d...)
			out = append(out, m)
		}
	}
	return out, len(combos) > 0
}

// diceCombos appends to out the ways to pick n unplaced, set dice, n
// indexes each, once per multiset of values (equal dice are
// interchangeable), using the lowest indexes: by value, and by index
// among equal values.
func diceCombos(out []int, dice []Die, n int) []int {
	var by diceByValue
	if !by.fill(dice) {
		return allDiceCombos(out, dice, n)
	}
	return by.combos(out, dice, n)
}

// diceByValue is the indexes of the first three free dice showing each
// value 1 to 6, lowest first, and how many there are of each: Legal asks
// for 1 to 3 dice, picked by value from these, as often as it lists moves.
type diceByValue struct {
	at    [7][3]int
	count [7]int
}

// fill sorts the free dice by value, and reports false when one shows a
// value the rules never make (a state not of their making), which only
// the general way (allDiceCombos) can pick from.
func (b *diceByValue) fill(dice []Die) bool {
	for i, d := range dice {
		if d.Placed || d.Value == 0 {
			continue
		}
		if d.Value < 1 || d.Value >= len(b.at) {
			return false
		}
		if k := b.count[d.Value]; k < len(b.at[0]) {
			b.at[d.Value][k] = i
		}
		b.count[d.Value]++
	}
	return true
}

// combos appends diceCombos of dice, which b was filled from: by loops
// over the values for 1 to 3 dice, the general way for more.
func (b *diceByValue) combos(out []int, dice []Die, n int) []int {
	if n < 1 || n > len(b.at[0]) {
		return allDiceCombos(out, dice, n)
	}
	const top = len(b.at) - 1 // the highest value
	for v := 1; v <= top; v++ {
		if b.count[v] == 0 {
			continue
		}
		first := b.at[v][0]
		if n == 1 {
			out = append(out, first)
			continue
		}
		if n == 3 && b.count[v] >= 3 {
			out = append(out, first, b.at[v][1], b.at[v][2])
		}
		if b.count[v] >= 2 {
			if n == 2 {
				out = append(out, first, b.at[v][1])
			} else {
				for w := v + 1; w <= top; w++ {
					if b.count[w] > 0 {
						out = append(out, first, b.at[v][1], b.at[w][0])
					}
				}
			}
		}
		for w := v + 1; w <= top; w++ {
			if b.count[w] == 0 {
				continue
			}
			if n == 2 {
				out = append(out, first, b.at[w][0])
				continue
			}
			if b.count[w] >= 2 {
				out = append(out, first, b.at[w][0], b.at[w][1])
			}
			for x := w + 1; x <= top; x++ {
				if b.count[x] > 0 {
					out = append(out, first, b.at[w][0], b.at[x][0])
				}
			}
		}
	}
	return out
}

// allDiceCombos is diceCombos for any number of dice showing any values.
func allDiceCombos(out []int, dice []Die, n int) []int {
	var space, chosen [16]int // most seats have few dice: no allocation for them
	free := space[:0]
	for i, d := range dice {
		if d.Placed || d.Value == 0 {
			continue
		}
		// By value, and by index among equal values: an insertion sort,
		// stable and quick for a seat's few dice.
		j := len(free)
		free = append(free, i)
		for ; j > 0 && dice[free[j-1]].Value > d.Value; j-- {
			free[j] = free[j-1]
		}
		free[j] = i
	}
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

// handDesign is one design in a hand: its first copy, where that sits in
// the hand, and where the second sits (-1 when there is none). Moves that
// differ only in which copy of a design they use are listed once, with the
// first copy, or the second when the first is taken already.
type handDesign struct {
	card       Card
	design     int // see design
	at, second int
}

// handDesigns appends to out one entry per design in hand, in hand order.
func handDesigns(out []handDesign, hand []Card) []handDesign {
	start := len(out)
	var seen uint64 // the designs under 64 met so far: most are new, and need no search
next:
	for i, c := range hand {
		d := design(c)
		if d < 64 && seen&(1<<d) == 0 {
			seen |= 1 << d
			out = append(out, handDesign{card: c, design: d, at: i, second: -1})
			continue
		}
		for k := start; k < len(out); k++ {
			if out[k].design == d {
				if out[k].second < 0 {
					out[k].second = i
				}
				continue next
			}
		}
		out = append(out, handDesign{card: c, design: d, at: i, second: -1})
	}
	return out
}

// pairedWith appends to out, in hand order, the cards that can go with the
// first copy of designs[i] (designs are hand's): one of each other design
// and the second copy of its own, if any. With after, only those of its
// design and the designs after it in the hand, so that each unordered pair
// of designs comes once.
func pairedWith(out, hand []Card, designs []handDesign, i int, after bool) []Card {
	if !after {
		for _, e := range designs[:i] {
			out = append(out, e.card)
		}
	}
	second := designs[i].second
	for _, e := range designs[i+1:] {
		if second >= 0 && second < e.at {
			out = append(out, hand[second])
			second = -1
		}
		out = append(out, e.card)
	}
	if second >= 0 {
		out = append(out, hand[second])
	}
	return out
}

// cardPairs appends to out the distinct pairs of designs that can be
// discarded from hand together (designs are hand's).
func cardPairs(out [][2]Card, hand []Card, designs []handDesign) [][2]Card {
	var others [16]Card
	for i, a := range designs {
		for _, b := range pairedWith(others[:0], hand, designs, i, true) {
			out = append(out, [2]Card{a.card, b})
		}
	}
	return out
}

// design is the index of c's printed design in the card table; every card
// outside the table counts as one more design, as their shared name does.
func design(c Card) int { return c.facts().design }
