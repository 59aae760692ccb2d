package factories

import (
	"slices"
)

// Legal lists the moves seat can make now. Moves that differ only in which
// of two equal dice or two copies of a card they use are listed once.
// Candidates come from the state (the hand, the free dice, the card's
// recipe) and are kept when Apply would accept them (see accepts).
func Legal(s State, seat int) []Move { return legal(s, seat, false) }

// legal is Legal. With plain set it is Legal's plain definition, which the
// tests hold the quick way to: every candidate played by Apply itself on a
// whole copy of the game, and kept if accepted.
func legal(s State, seat int, plain bool) []Move {
	if seat < 0 || seat >= len(s.Players) {
		return nil
	}
	var cand []Move
	switch s.Phase {
	case MarketPhase:
		if seat == s.Turn {
			cand = marketCandidates(s, seat)
		}
	case WorkPhase:
		if !s.Players[seat].Done {
			cand = workCandidates(s, seat)
		}
	}
	// The moves kept overwrite the candidates in place: cand is ours.
	legal := cand[:0]
	for _, m := range cand {
		ok := false
		if plain {
			_, _, err := Apply(s, seat, m)
			ok = err == nil
		} else {
			ok = accepts(&s, seat, m)
		}
		if ok {
			legal = append(legal, m)
		}
	}
	if len(legal) == 0 {
		return nil
	}
	return legal
}

// accepts reports whether Apply would accept m, a candidate that
// marketCandidates or workCandidates made for seat, without playing it.
// A candidate is well formed by construction: its cards are in the hand or
// the marketplace, its dice are the seat's own, free and fit the card's
// pattern, its choices are among the card's options, and it is the seat's
// turn. What is left is what Apply checks against the seat's resources and
// limits, asked here through the same helpers (buildCost, recipeCost,
// owns, canDraft). Playing each candidate on a copy of the game gives the
// same answer at many times the cost; TestLegalMatchesItsDefinition and
// TestAcceptsMatchesApply hold the two together.
func accepts(s *State, seat int, m Move) bool {
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
		return p.Energy >= s.Market.Contractors[m.Slot].Info().Energy
	case Pass:
		return !canDraft(s, seat)
	case Build:
		metal, energy := buildCost(p, m.Card)
		return !owns(p, m.Card) && p.Metal >= metal && p.Energy >= energy
	case Place:
		return hqTakes(m.Action, p.Dice[m.Dice[0]].Value) && len(*hqAction(p, m.Action)) < 3
	case Activate:
		name, metal, energy := m.Card.Name(), 0, 0
		if name == Replicator {
			// Replicator takes its 1 energy before the copied recipe pays.
			name, energy = s.Market.Blueprints[m.Slot].Name(), 1
		}
		var space [8]int
		dice := space[:0]
		for _, d := range m.Dice {
			dice = append(dice, p.Dice[d].Value)
		}
		rm, re := recipeCost(name, m, dice)
		return p.Metal >= metal+rm && p.Energy >= energy+re
	case DiscardDown:
		return m.Metal <= p.Metal && m.Energy <= p.Energy
	case Done:
		return p.Metal+p.Energy <= StoreLimit && len(p.Hand) <= HandLimit
	}
	return false
}

func marketCandidates(s State, seat int) []Move {
	p := &s.Players[seat]
	var out []Move
	if !s.Refreshed {
		for _, row := range []string{BlueprintRow, ContractorRow} {
			for _, pay := range []string{"metal", "energy"} {
				out = append(out, Move{Kind: Refresh, Row: row, Pay: pay})
			}
		}
	}
	for i := range marketSize {
		if s.Market.Blueprints[i] != None {
			out = append(out, Move{Kind: Take, Slot: i})
		}
	}
	for i, c := range s.Market.Contractors {
		if c == None {
			continue
		}
		opponents := []int{0}
		if gift(s.Market.Contractors, i) && !s.Solo() {
			opponents = nil
			for o := range s.Players {
				if o != seat {
					opponents = append(opponents, o)
				}
			}
		}
		for _, d := range distinctCards(p.Hand) {
			if d.Info().Tool != s.Market.Tools[i] {
				continue
			}
			for _, o := range opponents {
				out = append(out, Move{Kind: Hire, Slot: i, Discard: []Card{d}, Opponent: o})
			}
		}
	}
	return append(out, Move{Kind: Pass})
}

// workCandidates lists the work-phase moves seat could make with its hand,
// dice and buildings; accepts decides which of them it can pay for.
func workCandidates(s State, seat int) []Move {
	p := &s.Players[seat]
	if p.SettingDice {
		var out []Move
		for n := range 5 {
			for _, vals := range valueMultisets(n) {
				out = append(out, Move{Kind: SetDice, Values: vals})
			}
		}
		return out
	}
	out := make([]Move, 1, 8)
	out[0] = Move{Kind: Done}
	for i, d := range p.Dice {
		if d.Chosen && d.Value == 0 {
			for v := 1; v <= 6; v++ {
				out = append(out, Move{Kind: Choose, Dice: []int{i}, Value: v})
			}
		}
	}
	hand := distinctCards(p.Hand)
	for _, c := range hand {
		for _, d := range distinctCardsBut(p.Hand, indexOf(p.Hand, c)) {
			if d.Info().Tool == c.Info().Tool {
				out = append(out, Move{Kind: Build, Card: c, Discard: []Card{d}})
			}
		}
	}
	for _, dice := range diceCombos(p.Dice, 1) {
		for _, a := range []string{Research, Generate, Mine} {
			out = append(out, Move{Kind: Place, Dice: dice, Action: a})
		}
	}
	for _, b := range p.Compound {
		if b.Used || !activatable(b.Card.Info()) {
			continue
		}
		if b.Card.Name() != Replicator {
			for _, m := range recipeCandidates(b.Card.Name(), p) {
				m.Kind, m.Card = Activate, b.Card
				out = append(out, m)
			}
			continue
		}
		for slot, target := range s.Market.Blueprints {
			if target == None {
				continue
			}
			for _, m := range recipeCandidates(target.Name(), p) {
				m.Kind, m.Card, m.Slot = Activate, b.Card, slot
				out = append(out, m)
			}
		}
	}
	if len(p.Hand) > HandLimit {
		for _, c := range hand {
			out = append(out, Move{Kind: DiscardDown, Discard: []Card{c}})
		}
	}
	if p.Metal+p.Energy > StoreLimit {
		out = append(out, Move{Kind: DiscardDown, Metal: 1}, Move{Kind: DiscardDown, Energy: 1})
	}
	return out
}

// recipeCandidates lists the parameter choices a recipe could take: dice,
// discards and options. Apply decides which of them are affordable.
func recipeCandidates(name string, p *Player) []Move {
	var out []Move
	withDice := func(n int, base Move) {
		for _, d := range diceCombos(p.Dice, n) {
			// Apply refuses dice that break the card's pattern with this same
			// check, so skipping them here only saves trying them.
			vals := make([]int, len(d))
			for i, x := range d {
				vals[i] = p.Dice[x].Value
			}
			if checkWorkers(name, vals) != nil {
				continue
			}
			m := base
			m.Dice = d
			out = append(out, m)
		}
	}
	switch name {
	case BatteryFactory, Robot:
		out = append(out, Move{})
	case Golem:
		for v := 1; v <= 6; v++ {
			out = append(out, Move{Value: v})
		}
	case Incinerator, Refinery:
		for _, c := range distinctCards(p.Hand) {
			out = append(out, Move{Discard: []Card{c}})
		}
	case RecyclingPlant:
		for _, pair := range cardPairs(p.Hand) {
			out = append(out, Move{Discard: pair})
		}
	case Biolab, FulfillmentCenter, NuclearPlant, Foundry, Motherlode, PowerPlant, Dojo, FitnessCenter, Gymnasium:
		withDice(1, Move{})
	case BlackMarket:
		for _, c := range distinctCards(p.Hand) {
			b := c.Info()
			if b.Metal+b.Energy <= 4 {
				withDice(1, Move{Discard: []Card{c}})
				continue
			}
			for metal := max(0, 4-b.Energy); metal <= min(b.Metal, 4); metal++ {
				withDice(1, Move{Discard: []Card{c}, Metal: metal, Energy: 4 - metal})
			}
		}
	case AluminumFactory, ConcretePlant:
		withDice(2, Move{})
	case TrashCompactor:
		for _, pair := range cardPairs(p.Hand) {
			withDice(2, Move{Discard: pair})
		}
	case Harvester:
		for _, c := range []string{"metal", "energy"} {
			withDice(2, Move{Choice: c})
		}
	case Manufactory:
		for _, c := range []string{"metal", "energy", "draw"} {
			withDice(2, Move{Choice: c})
		}
	case MegaFactory:
		for v := 1; v <= 6; v++ {
			withDice(3, Move{Value: v})
		}
	case AssemblyLine, Warehouse:
		withDice(3, Move{})
	case TempAgency:
		for n := 1; n <= len(p.Dice); n++ {
			withDice(n, Move{})
		}
	}
	return out
}

// diceCombos lists ways to pick n unplaced, set dice, once per multiset of
// values (equal dice are interchangeable), using the lowest indexes.
func diceCombos(dice []Die, n int) [][]int {
	var space [16]int // most seats have few dice: no allocation for them
	free := space[:0]
	for i, d := range dice {
		if !d.Placed && d.Value != 0 {
			free = append(free, i)
		}
	}
	slices.SortStableFunc(free, func(a, b int) int { return dice[a].Value - dice[b].Value })
	var out [][]int
	var all []int // the combinations back to back; out slices into it
	chosen := make([]int, 0, n)
	var pick func(start int)
	pick = func(start int) {
		if len(chosen) == n {
			all = append(all, chosen...)
			out = append(out, all[len(all)-n:len(all):len(all)])
			return
		}
		for i := start; i < len(free); i++ {
			// Skip a die equal to the one before it at this depth: same multiset.
			if i > start && dice[free[i]].Value == dice[free[i-1]].Value {
				continue
			}
			chosen = append(chosen, free[i])
			pick(i + 1)
			chosen = chosen[:len(chosen)-1]
		}
	}
	pick(0)
	return out
}

// valueMultisets lists the sorted multisets of n die values.
func valueMultisets(n int) [][]int {
	var out [][]int
	var pick func(from int, chosen []int)
	pick = func(from int, chosen []int) {
		if len(chosen) == n {
			out = append(out, slices.Clone(chosen))
			return
		}
		for v := from; v <= 6; v++ {
			pick(v, append(chosen, v))
		}
	}
	pick(1, nil)
	return out
}

// distinctCards returns one card of each design in hand, in hand order.
func distinctCards(hand []Card) []Card { return distinctCardsBut(hand, -1) }

// distinctCardsBut is distinctCards of the hand without the card at index
// skip (none when skip is -1): the other copy of that design, if any, is
// the one listed.
func distinctCardsBut(hand []Card, skip int) []Card {
	var out []Card
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

// cardPairs lists the distinct pairs of designs that can be discarded from
// hand together.
func cardPairs(hand []Card) [][]Card {
	var out [][]Card
	designs := distinctCards(hand)
	for i, a := range designs {
		for _, b := range distinctCardsBut(hand, indexOf(hand, a)) {
			// Keep each unordered pair once: b at or after a in design order.
			if indexOfName(designs, b.Name()) >= i {
				out = append(out, []Card{a, b})
			}
		}
	}
	return out
}

func indexOfName(cards []Card, name string) int {
	return slices.IndexFunc(cards, func(c Card) bool { return c.Name() == name })
}
